extension TOMLReader {
    /// Reads a basic string, `"…"` with escapes, from its opening quote.
    mutating func readBasicString() throws(TOMLError) -> String {
        let open = pos
        pos &+= 1
        var text: [UInt8] = []
        var runStart = pos
        while true {
            let byte = current
            if byte == UInt8(ascii: "\"") {
                text.append(contentsOf: bytes[runStart..<pos])
                pos &+= 1
                return String(decoding: text, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                text.append(contentsOf: bytes[runStart..<pos])
                try readEscape(into: &text)
                runStart = pos
                continue
            }
            if byte < 0x20 && byte != 0x09 || byte == 0x7F {
                if atEnd {
                    throw failure("the string opened at \(mark(at: open)) is not closed; end it with '\"' on the same line", at: open)
                }
                if byte == 0x0A || byte == 0x0D {
                    throw failure("a \"…\" string ends on its line; close it with '\"', or write a multi-line string in \"\"\" … \"\"\"")
                }
                throw failure("\(describe(at: pos)) is not allowed in a string; write it as an escape such as \\u\(TOMLErrorText.hex(UInt32(byte), digits: 4))")
            }
            pos &+= 1
        }
    }

    /// Reads a multi-line basic string, `"""…"""`, from its opening quotes: a line break right after them is
    /// dropped, a backslash at the end of a line drops the break and the whitespace after it, CRLF is kept as LF.
    mutating func readMultilineBasicString() throws(TOMLError) -> String {
        let open = pos
        pos &+= 3
        _ = skipNewline()
        var text: [UInt8] = []
        var runStart = pos
        while true {
            let byte = current
            switch byte {
            case UInt8(ascii: "\""):
                var quotes = 1
                while self.byte(pos &+ quotes) == UInt8(ascii: "\"") && quotes < 6 { quotes &+= 1 }
                if quotes < 3 {
                    pos &+= quotes
                    continue
                }
                if quotes == 6 {
                    throw failure("too many quotes: a \"\"\" string can end with at most two quotes before its closing \"\"\"; escape one as \\\"", at: pos &+ 5)
                }
                text.append(contentsOf: bytes[runStart..<(pos &+ quotes &- 3)])
                pos &+= quotes
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                text.append(contentsOf: bytes[runStart..<pos])
                if try !skipEscapedLineBreak() { try readEscape(into: &text) }
                runStart = pos
            case 0x0A:
                pos &+= 1
            case 0x0D where self.byte(pos &+ 1) == 0x0A:
                text.append(contentsOf: bytes[runStart..<pos])
                text.append(0x0A)
                pos &+= 2
                runStart = pos
            case 0x00..<0x20 where byte != 0x09, 0x7F:
                if atEnd {
                    throw failure("the string opened at \(mark(at: open)) is not closed; end it with \"\"\"", at: open)
                }
                if byte == 0x0D {
                    throw failure("a carriage return in a string must be followed by a line feed; write \\r for a lone one")
                }
                throw failure("\(describe(at: pos)) is not allowed in a string; write it as an escape such as \\u\(TOMLErrorText.hex(UInt32(byte), digits: 4))")
            default:
                pos &+= 1
            }
        }
    }

    /// Skips a backslash that ends a line in a multi-line basic string, with the line break and every space, tab and
    /// line break after it. `false`, reading nothing, if the backslash starts an ordinary escape.
    private mutating func skipEscapedLineBreak() throws(TOMLError) -> Bool {
        var next = pos &+ 1
        while byte(next) == 0x20 || byte(next) == 0x09 { next &+= 1 }
        let isBreak = byte(next) == 0x0A || byte(next) == 0x0D && byte(next &+ 1) == 0x0A
        guard isBreak else {
            if next > pos &+ 1 {
                throw failure("a backslash followed by spaces must end the line (a line-ending backslash); remove the spaces after it or escape it as \\\\")
            }
            return false
        }
        pos = next
        while true {
            if current == 0x20 || current == 0x09 {
                pos &+= 1
            } else if !skipNewline() {
                return true
            }
        }
    }

    /// Reads one escape from its backslash, appending the character's UTF-8.
    private mutating func readEscape(into text: inout [UInt8]) throws(TOMLError) {
        let backslash = pos
        let letter = byte(pos &+ 1)
        pos &+= 2
        switch letter {
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "\""): text.append(0x22)
        case UInt8(ascii: "\\"): text.append(0x5C)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = letter == UInt8(ascii: "u") ? 4 : 8
            var value: UInt32 = 0
            for index in 0..<digits {
                guard let digit = Self.hexValue(byte(pos &+ index)) else {
                    throw failure("\\\(Character(Unicode.Scalar(letter))) takes exactly \(digits) hexadecimal digits, as in \(letter == UInt8(ascii: "u") ? "\\u00E9" : "\\U0001F600")", at: backslash)
                }
                value = value << 4 | UInt32(digit)
            }
            pos &+= digits
            guard let scalar = Unicode.Scalar(value) else {
                throw failure("\\\(Character(Unicode.Scalar(letter)))\(TOMLErrorText.hex(value, digits: digits)) is not a Unicode scalar value (surrogates D800-DFFF and values above 10FFFF are not characters)", at: backslash)
            }
            text.append(contentsOf: String(Character(scalar)).utf8)
        default:
            pos = backslash
            let shown = letter == 0 && backslash &+ 1 >= end ? "at the end of the text" : "before \(describe(at: backslash &+ 1))"
            throw failure("invalid escape: a backslash \(shown); the escapes are \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX, and a backslash itself is written \\\\", at: backslash)
        }
    }

    /// Reads a literal string, `'…'` without escapes, from its opening quote.
    mutating func readLiteralString() throws(TOMLError) -> String {
        let open = pos
        pos &+= 1
        let contentStart = pos
        while true {
            let byte = current
            if byte == UInt8(ascii: "'") {
                let text = String(decoding: bytes[contentStart..<pos], as: UTF8.self)
                pos &+= 1
                return text
            }
            if byte < 0x20 && byte != 0x09 || byte == 0x7F {
                if atEnd {
                    throw failure("the string opened at \(mark(at: open)) is not closed; end it with ' on the same line", at: open)
                }
                if byte == 0x0A || byte == 0x0D {
                    throw failure("a '…' string ends on its line; close it with ', or write a multi-line string in ''' … '''")
                }
                throw failure("\(describe(at: pos)) is not allowed in a literal string; use a \"…\" string with an escape such as \\u\(TOMLErrorText.hex(UInt32(byte), digits: 4))")
            }
            pos &+= 1
        }
    }

    /// Reads a multi-line literal string, `'''…'''`, from its opening quotes: a line break right after them is
    /// dropped, CRLF is kept as LF, nothing is escaped.
    mutating func readMultilineLiteralString() throws(TOMLError) -> String {
        let open = pos
        pos &+= 3
        _ = skipNewline()
        var text: [UInt8] = []
        var runStart = pos
        while true {
            let byte = current
            switch byte {
            case UInt8(ascii: "'"):
                var quotes = 1
                while self.byte(pos &+ quotes) == UInt8(ascii: "'") && quotes < 6 { quotes &+= 1 }
                if quotes < 3 {
                    pos &+= quotes
                    continue
                }
                if quotes == 6 {
                    throw failure("too many quotes: a ''' string can end with at most two quotes before its closing '''; use a \"\"\" string for more", at: pos &+ 5)
                }
                text.append(contentsOf: bytes[runStart..<(pos &+ quotes &- 3)])
                pos &+= quotes
                return String(decoding: text, as: UTF8.self)
            case 0x0A:
                pos &+= 1
            case 0x0D where self.byte(pos &+ 1) == 0x0A:
                text.append(contentsOf: bytes[runStart..<pos])
                text.append(0x0A)
                pos &+= 2
                runStart = pos
            case 0x00..<0x20 where byte != 0x09, 0x7F:
                if atEnd {
                    throw failure("the string opened at \(mark(at: open)) is not closed; end it with '''", at: open)
                }
                if byte == 0x0D {
                    throw failure("a carriage return in a string must be followed by a line feed")
                }
                throw failure("\(describe(at: pos)) is not allowed in a literal string; use a \"\"\" string with an escape such as \\u\(TOMLErrorText.hex(UInt32(byte), digits: 4))")
            default:
                pos &+= 1
            }
        }
    }

    /// The value of a hexadecimal digit.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte &- 0x30
        case 0x41...0x46: byte &- 0x41 &+ 10
        case 0x61...0x66: byte &- 0x61 &+ 10
        default: nil
        }
    }
}
