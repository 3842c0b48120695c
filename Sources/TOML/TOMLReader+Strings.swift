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
                throw refusedCharacter(in: .basic, openedAt: open)
            }
            pos &+= 1
        }
    }

    /// Reads a multi-line basic string, `"""…"""`, from its opening quotes: a line break right after them is
    /// dropped, a backslash at the end of a line drops the break and the whitespace after it, CRLF is kept as LF.
    mutating func readMultilineBasicString() throws(TOMLError) -> String {
        try readMultilineString(.multilineBasic)
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
                throw refusedCharacter(in: .literal, openedAt: open)
            }
            pos &+= 1
        }
    }

    /// Reads a multi-line literal string, `'''…'''`, from its opening quotes: a line break right after them is
    /// dropped, CRLF is kept as LF, nothing is escaped.
    mutating func readMultilineLiteralString() throws(TOMLError) -> String {
        try readMultilineString(.multilineLiteral)
    }

    /// Reads a multi-line string of `kind` from its opening quotes. Always inlined into the two readers above,
    /// where `kind` is a constant, so each keeps a loop of its own with nothing decided per byte.
    @inline(__always)
    private mutating func readMultilineString(_ kind: StringKind) throws(TOMLError) -> String {
        let open = pos
        let quote = kind.quote
        pos &+= 3
        _ = skipNewline()
        var text: [UInt8] = []
        var runStart = pos
        while true {
            let byte = current
            switch byte {
            case quote:
                // Three to five quotes close the string, those before the last three being content; one or two are
                // content.
                var quotes = 1
                while self.byte(pos &+ quotes) == quote && quotes < 6 { quotes &+= 1 }
                if quotes < 3 {
                    pos &+= quotes
                    continue
                }
                if quotes == 6 { throw failure(kind.tooManyQuotes, at: pos &+ 5) }
                text.append(contentsOf: bytes[runStart..<(pos &+ quotes &- 3)])
                pos &+= quotes
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\") where kind == .multilineBasic:
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
                throw refusedCharacter(in: kind, openedAt: open)
            default:
                pos &+= 1
            }
        }
    }

    /// The error for the byte at `pos`, which a string of `kind` opened at `open` refuses: the end of the text, a
    /// line break (in a multi-line string, which reads its line breaks itself, only a lone carriage return), or
    /// another control character.
    @inline(never)
    private mutating func refusedCharacter(in kind: StringKind, openedAt open: Int) -> TOMLError {
        if atEnd {
            return failure("the string opened at \(mark(at: open)) is not closed; end it with \(kind.closing)", at: open)
        }
        let byte = current
        if byte == 0x0A || byte == 0x0D { return failure(kind.lineBreak) }
        return failure("\(describe(at: pos)) is not allowed \(kind.escapeAdvice) \\u\(TOMLErrorText.hex(UInt32(byte), digits: 4))")
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

/// The four kinds of string, with how the messages word what each refuses.
private enum StringKind {
    case basic, multilineBasic, literal, multilineLiteral

    /// The quote that opens and closes the string.
    var quote: UInt8 {
        switch self {
        case .basic, .multilineBasic: UInt8(ascii: "\"")
        case .literal, .multilineLiteral: UInt8(ascii: "'")
        }
    }

    /// How to end the string, for one that is not closed.
    var closing: String {
        switch self {
        case .basic: "'\"' on the same line"
        case .multilineBasic: "\"\"\""
        case .literal: "' on the same line"
        case .multilineLiteral: "'''"
        }
    }

    /// Why a line break (in a multi-line string, a lone carriage return) cannot stand in the string.
    var lineBreak: String {
        switch self {
        case .basic: "a \"…\" string ends on its line; close it with '\"', or write a multi-line string in \"\"\" … \"\"\""
        case .multilineBasic: "a carriage return in a string must be followed by a line feed; write \\r for a lone one"
        case .literal: "a '…' string ends on its line; close it with ', or write a multi-line string in ''' … '''"
        case .multilineLiteral: "a carriage return in a string must be followed by a line feed"
        }
    }

    /// Where a control character is refused and what to write instead, up to the `\u` escape itself.
    var escapeAdvice: String {
        switch self {
        case .basic, .multilineBasic: "in a string; write it as an escape such as"
        case .literal: "in a literal string; use a \"…\" string with an escape such as"
        case .multilineLiteral: "in a literal string; use a \"\"\" string with an escape such as"
        }
    }

    /// The refusal of six quotes or more where a multi-line string ends (at most two of content, then three).
    var tooManyQuotes: String {
        switch self {
        case .basic, .multilineBasic:
            "too many quotes: a \"\"\" string can end with at most two quotes before its closing \"\"\"; escape one as \\\""
        case .literal, .multilineLiteral:
            "too many quotes: a ''' string can end with at most two quotes before its closing '''; use a \"\"\" string for more"
        }
    }
}
