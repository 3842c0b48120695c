/// The state of one read: the UTF-8 bytes, where reading is, the budget spent, and a cursor that turns byte
/// offsets into line and column.
///
/// Every byte access goes through ``byte(_:)``, which answers 0 past the end, so no input can index out of range;
/// a 0 byte inside the text is a control character that every rule refuses, and messages tell the two apart.
/// Nothing here recurses: nesting is kept on explicit stacks.
struct TOMLReader {
    let bytes: [UInt8]
    /// Where reading is, as an offset into `bytes`.
    var pos: Int
    /// The first byte after the byte-order mark, if there was one.
    let start: Int
    let maxDepth: Int
    let maxValues: Int
    /// Values made so far.
    var values = 0
    /// The sections read so far: each header starts one, which ends the reach of dotted keys before it.
    var section = 0
    private var cursor: (offset: Int, line: Int, column: Int)

    init(bytes: [UInt8], limits: TOMLLimits) {
        self.bytes = bytes
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        start = bytes.starts(with: bom) ? 3 : 0
        pos = start
        maxDepth = limits.effectiveMaxDepth
        maxValues = max(limits.maxValues, 0)
        cursor = (start, 1, 1)
    }

    // MARK: Bytes

    var end: Int { bytes.count }

    var atEnd: Bool { pos >= bytes.count }

    /// The byte at `offset`, or 0 past the end.
    @inline(__always)
    func byte(_ offset: Int) -> UInt8 {
        offset >= 0 && offset < bytes.count ? bytes[offset] : 0
    }

    /// The byte where reading is, or 0 at the end.
    @inline(__always)
    var current: UInt8 { byte(pos) }

    // MARK: Positions and errors

    /// The line and column of the byte at `offset`. Cheap when offsets are asked for in increasing order, as the
    /// reader does (each call continues from the last); asking for an earlier one starts over, which only an
    /// error does.
    mutating func mark(at offset: Int) -> TOMLMark {
        let target = min(max(offset, start), bytes.count)
        if target < cursor.offset { cursor = (start, 1, 1) }
        var (index, line, column) = cursor
        while index < target {
            let byte = bytes[index]
            if byte == 0x0A {
                line &+= 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column &+= 1
            }
            index &+= 1
        }
        cursor = (index, line, column)
        return TOMLMark(line: line, column: column)
    }

    /// An error at the byte at `offset`.
    mutating func failure(_ message: String, at offset: Int) -> TOMLError {
        TOMLError(message, at: mark(at: offset))
    }

    /// An error at the byte where reading is.
    mutating func failure(_ message: String) -> TOMLError {
        failure(message, at: pos)
    }

    /// The byte at `offset` as a message shows it: `'x'`, `a line break`, `the end of the text`, a control
    /// character by its code.
    func describe(at offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the text" }
        let byte = byte(offset)
        switch byte {
        case 0x0A: return "a line break"
        case 0x0D: return "a carriage return"
        case 0x09: return "a tab"
        case 0x20: return "a space"
        case 0x00..<0x20, 0x7F: return "the control character U+\(TOMLErrorText.hex(UInt32(byte), digits: 4))"
        case 0x21..<0x7F: return "'\(Character(Unicode.Scalar(byte)))'"
        default:
            var end = offset &+ 1
            while end < bytes.count, end &- offset < 4, self.byte(end) & 0xC0 == 0x80 { end &+= 1 }
            let text = String(decoding: bytes[offset..<end], as: UTF8.self)
            return "'\(TOMLErrorText.oneLine(text))'"
        }
    }

    /// Counts one more value against the budget.
    mutating func countValue(at offset: Int) throws(TOMLError) {
        values &+= 1
        guard values > maxValues else { return }
        throw failure("the document holds more than \(maxValues) values; split it or shorten it", at: offset)
    }

    // MARK: Whitespace, comments, line breaks

    /// Skips spaces and tabs.
    mutating func skipSpaces() {
        while pos < bytes.count, bytes[pos] == 0x20 || bytes[pos] == 0x09 { pos &+= 1 }
    }

    /// Skips a comment from its `#` to the end of the line, leaving the line break. Control characters other than
    /// tab are refused, a carriage return unless a line feed follows it.
    mutating func skipComment() throws(TOMLError) {
        pos &+= 1
        while pos < bytes.count {
            let byte = bytes[pos]
            if byte == 0x0A { return }
            if byte == 0x0D, self.byte(pos &+ 1) == 0x0A { return }
            if byte < 0x20 && byte != 0x09 || byte == 0x7F {
                throw failure("\(describe(at: pos)) is not allowed in a comment; remove it")
            }
            pos &+= 1
        }
    }

    /// Reads a line break (LF or CRLF) if one is here.
    mutating func skipNewline() -> Bool {
        if current == 0x0A {
            pos &+= 1
            return true
        }
        if current == 0x0D, byte(pos &+ 1) == 0x0A {
            pos &+= 2
            return true
        }
        return false
    }

    /// Skips spaces, tabs, comments and line breaks, as an array allows between its elements.
    mutating func skipBlank() throws(TOMLError) {
        while true {
            skipSpaces()
            if current == UInt8(ascii: "#") {
                try skipComment()
            } else if !skipNewline() {
                return
            }
        }
    }

    /// Ends a line: spaces, an optional comment, then a line break or the end of the text. `after` names what the
    /// line held, for the message.
    mutating func endLine(after: String) throws(TOMLError) {
        skipSpaces()
        if current == UInt8(ascii: "#") { try skipComment() }
        if atEnd || skipNewline() { return }
        if current == 0x0D {
            throw failure("a carriage return must be followed by a line feed (write line breaks as LF or CRLF)")
        }
        throw failure("expected the end of the line after \(after), found \(describe(at: pos)); put one key = value or header per line, and start comments with '#'")
    }

    // MARK: Character classes

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    @inline(__always)
    static func isBareKey(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }
}
