/// Finds table headers toml++ must not be given: `[` or `[[` followed by something that cannot start a key (`[[[a]]]`,
/// `[ =]`). toml++ 3 asserts on them (a crash in debug builds, undefined behaviour under `NDEBUG`, where the assertion
/// becomes an optimiser assumption), so they are refused before it parses.
///
/// A line is a header when its first character is `[` outside any string, array or inline table; one pass over the text.
enum TOMLHeaderCheck {
    /// The 1-based line (within `text`) of the first header toml++ would assert on, if any.
    static func firstUnsafeHeader(in text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        var index = 0, line = 1, depth = 0, atLineStart = true
        func at(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        func skip(_ isIncluded: (UInt8) -> Bool) {
            while let byte = at(0), isIncluded(byte) {
                if byte == UInt8(ascii: "\n") { line += 1 }
                index += 1
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\n") {
                line += 1
                index += 1
                atLineStart = true
                continue
            }
            let lineStart = atLineStart
            atLineStart = false
            switch byte {
            case UInt8(ascii: "#"):
                skip { $0 != UInt8(ascii: "\n") }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                skipString(bytes, &index, &line)
            case UInt8(ascii: "[") where depth == 0 && lineStart:
                index += 1
                skip { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                if at(0) == UInt8(ascii: "[") {
                    index += 1
                    skip { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                }
                guard let next = at(0), isKeyStart(next) else { return line }
                skip { $0 != UInt8(ascii: "\n") }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                index += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth = max(0, depth - 1)
                index += 1
            default:
                index += 1
            }
        }
        return nil
    }

    /// A character that may follow a header's brackets: a bare key's, a quote, or `]` (which toml++ refuses itself).
    private static func isKeyStart(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }

    /// Moves past the string starting at `index`: basic (`"`, escapes) or literal (`'`), single- or multi-line.
    private static func skipString(_ bytes: [UInt8], _ index: inout Int, _ line: inout Int) {
        let quote = bytes[index]
        let multiLine = index + 2 < bytes.count && bytes[index + 1] == quote && bytes[index + 2] == quote
        index += multiLine ? 3 : 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") {
                index += 2
                continue
            }
            if byte == UInt8(ascii: "\n") {
                line += 1
                if !multiLine { return }
            }
            if byte == quote {
                if !multiLine { index += 1; return }
                if index + 2 < bytes.count, bytes[index + 1] == quote, bytes[index + 2] == quote {
                    index += 3
                    return
                }
            }
            index += 1
        }
    }
}
