/// The front matter of a post, cut from its body: which format it is written in, its text, and the lines it spans.
///
/// The formats are the ones the big generators read: YAML between `---` lines (closed by `---` or `...`; Jekyll,
/// Hugo), TOML between `+++` lines (Hugo, Zola), and a JSON object starting the file (Hugo). A file that starts
/// with none of them has no front matter; one that opens a block and never closes it is refused with the line.
struct FrontMatterBlock {
    /// How the front matter is written.
    enum Format: String, Sendable {
        case yaml, toml, json
    }

    var format: Format
    /// The front matter's text, without its delimiters.
    var text: Substring
    /// The 1-based line of the file the front matter's text starts on.
    var firstLine: Int
    /// The Markdown after the front matter.
    var body: Substring

    /// Splits `file` into its front matter and body; `nil` when the file has no front matter.
    static func split(_ file: String) throws(FrontMatterProblem) -> FrontMatterBlock? {
        var text = file[...]
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        var lines = LineCursor(text)
        guard let opening = lines.next() else { return nil }
        let marker = opening.text.trimmingTrailingWhitespace
        if marker == "---" || marker == "+++" {
            let format: Format = marker == "---" ? .yaml : .toml
            let closers: Set<Substring> = format == .yaml ? ["---", "..."] : ["+++"]
            let start = lines.position
            while let line = lines.next() {
                if closers.contains(line.text.trimmingTrailingWhitespace) {
                    // Without the last line break, an error at the end of the text is placed on its last line.
                    var inside = text[start..<line.start]
                    if inside.unicodeScalars.last == "\n" { inside = Substring(inside.unicodeScalars.dropLast()) }
                    if inside.unicodeScalars.last == "\r" { inside = Substring(inside.unicodeScalars.dropLast()) }
                    return FrontMatterBlock(format: format, text: inside, firstLine: 2, body: text[lines.position...])
                }
            }
            throw FrontMatterProblem(line: 1, "the \(format == .yaml ? "YAML" : "TOML") front matter opened here is never closed by a '\(marker)' line")
        }
        if marker.first == "{" {
            guard let end = JSONObjectEnd.find(in: text) else {
                throw FrontMatterProblem(line: 1, "the JSON front matter opened here is never closed by a matching '}'")
            }
            var rest = LineCursor(text[end...])
            let closing = rest.next()
            guard closing.map({ $0.text.allSatisfy(\.isWhitespace) }) ?? true else {
                throw FrontMatterProblem(line: text[..<end].lineCount, "text follows the '}' closing the JSON front matter; the body starts on the next line")
            }
            return FrontMatterBlock(format: .json, text: text[..<end], firstLine: 1, body: text[rest.position...])
        }
        return nil
    }
}

/// A problem with a post, with its 1-based line in the file.
struct FrontMatterProblem: Error, CustomStringConvertible {
    var line: Int
    var message: String

    init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    var description: String { "line \(line): \(message)" }
}

/// Walks a text line by line, `\n` or `\r\n`, without copying (by Unicode scalars: `\r\n` is one `Character`).
struct LineCursor {
    struct Line {
        var text: Substring
        var start: Substring.Index
    }

    private let scalars: Substring.UnicodeScalarView
    private(set) var position: Substring.Index

    init(_ text: Substring) {
        scalars = text.unicodeScalars
        position = text.startIndex
    }

    mutating func next() -> Line? {
        guard position < scalars.endIndex else { return nil }
        let start = position
        let end = scalars[start...].firstIndex(of: "\n") ?? scalars.endIndex
        position = end < scalars.endIndex ? scalars.index(after: end) : end
        var line = scalars[start..<end]
        if line.last == "\r" { line = line.dropLast() }
        return Line(text: Substring(line), start: start)
    }
}

/// Where a JSON object starting a text ends: just after the `}` matching its first `{`, strings and escapes
/// respected (Hugo's rule for JSON front matter).
enum JSONObjectEnd {
    static func find(in text: Substring) -> Substring.Index? {
        var depth = 0, inString = false, escaped = false
        var index = text.utf8.startIndex
        while index < text.utf8.endIndex {
            let byte = text.utf8[index]
            index = text.utf8.index(after: index)
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }
}

extension Substring {
    /// The text without trailing spaces and tabs.
    var trimmingTrailingWhitespace: Substring {
        var text = self
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }

    /// How many lines the text spans (a text without a newline is one line).
    var lineCount: Int { utf8.count { $0 == UInt8(ascii: "\n") } + 1 }
}
