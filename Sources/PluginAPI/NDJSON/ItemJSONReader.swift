import Foundation

/// Reads one item's JSON straight from its bytes, as `JSONDecoder` with ``SearchableItem/init(from:)`` reads it
/// (the same item, or the same error) without building a JSON tree or going through `Decoder`: a pass reads every
/// line a plugin prints, and decoding was most of what a reindex of unchanged items cost.
///
/// Like `JSONDecoder`, it first checks the whole document's structure (strings find their closing quote, numbers
/// are runs of number characters, trailing commas are accepted, nesting stops at 512), then decodes only what is
/// asked for, when it is asked for: a key's text, a known field's string (escapes, UTF-8, no control characters)
/// or number (JSON's grammar, and a `Double` that neither overflows nor rounds to zero). A field asked for later is
/// never read if an earlier one failed, so the first fault reported is the same. Where the two differ: a line
/// starting with a UTF-16 or UTF-32 byte-order mark or pattern is not JSON here (`JSONDecoder` would convert it;
/// NDJSON is UTF-8). The tests hold it to `JSONDecoder` on generated and mutated lines.
struct ItemJSONReader {
    /// The document is not one JSON value.
    struct Malformed: Error {}

    /// The deepest nesting, counting the item's object, as `JSONDecoder`'s.
    static let maxDepth = 512

    /// What a line holds.
    enum Document {
        case object(Fields)
        case null
        /// A string, number, boolean or array.
        case other
    }

    /// A value's place in the line and what kind it is, for decoding when asked.
    struct Token {
        enum Kind {
            case null
            /// `simple`: no escape and no control character between the quotes.
            case string(simple: Bool)
            case number
            case other
        }

        var kind: Kind
        /// The value's bytes (a string's between its quotes).
        var range: Range<Int>
    }

    /// The object's fields: each known key's first value (an array's elements apart), and the unknown keys.
    struct Fields: SearchableItem.FieldSource {
        enum Value {
            case token(Token)
            case array([Token])
        }

        let line: [UInt8]
        /// By the key's place in ``ItemJSONReader/keys``.
        var values = [Value?](repeating: nil, count: ItemJSONReader.keys.count)
        var unknown: [String] = []

        func value(_ key: SearchableItem.CodingKeys) -> Value? {
            values[ItemJSONReader.keys.firstIndex(of: key)!]
        }

        func string(_ key: SearchableItem.CodingKeys) throws -> String? {
            switch value(key) {
            case nil: return nil
            case .token(let token)? where token.isNull: return nil
            case .token(let token)? where token.isString: return try text(token)
            default: throw ItemValidationError(field: key.stringValue, reason: "expected a string")
            }
        }

        func strings(_ key: SearchableItem.CodingKeys) throws -> [String]? {
            switch value(key) {
            case nil: return nil
            case .token(let token)? where token.isNull: return nil
            case .array(let elements)?:
                return try elements.map { element in
                    guard element.isString else { throw ItemValidationError(field: key.stringValue, reason: "expected an array of strings") }
                    return try text(element)
                }
            default: throw ItemValidationError(field: key.stringValue, reason: "expected an array of strings")
            }
        }

        func number(_ key: SearchableItem.CodingKeys) throws -> Double? {
            switch value(key) {
            case nil: return nil
            case .token(let token)? where token.isNull: return nil
            case .token(let token)? where token.isNumber:
                guard let number = ItemJSONReader.number(line[token.range]) else { throw ItemJSONReader.notJSON }
                return number
            default: throw ItemValidationError(field: key.stringValue, reason: "expected an integer")
            }
        }

        func flag(_ key: SearchableItem.CodingKeys) throws -> Bool? {
            switch value(key) {
            case nil: return nil
            case .token(let token)? where token.isNull: return nil
            case .token(let token)? where token.isLiteral && line[token.range].elementsEqual("true".utf8): return true
            case .token(let token)? where token.isLiteral && line[token.range].elementsEqual("false".utf8): return false
            default: throw ItemValidationError(field: key.stringValue, reason: "expected true or false")
            }
        }

        private func text(_ token: Token) throws(ItemValidationError) -> String {
            guard let text = ItemJSONReader.text(line[token.range], simple: token.isSimple) else { throw ItemJSONReader.notJSON }
            return text
        }
    }

    /// The error of a line that is not JSON, however it fails.
    static let notJSON = ItemValidationError(field: "", reason: "not valid JSON")

    /// The item's keys, and their UTF-8.
    static let keys = SearchableItem.CodingKeys.allCases
    private static let keyBytes = keys.map { Array($0.stringValue.utf8) }

    private let bytes: [UInt8]
    private var position = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The document `line` holds, its structure checked and its keys read; throws ``Malformed`` when it is not one
    /// JSON value.
    static func read(_ line: [UInt8]) throws(Malformed) -> Document {
        var reader = ItemJSONReader(line)
        return try reader.document()
    }

    private mutating func document() throws(Malformed) -> Document {
        let start = bytes.prefix(4)
        if start.starts(with: [0xEF, 0xBB, 0xBF]) {
            position = 3
        } else if start.starts(with: [0xFE, 0xFF]) || start.starts(with: [0xFF, 0xFE]) || start.count >= 2 && start.prefix(4).contains(0) {
            throw Malformed()
        }
        skipWhitespace()
        let document: Document
        switch peek() {
        case UInt8(ascii: "{"): document = .object(try object())
        case UInt8(ascii: "n"):
            try skipValue(depth: 0)
            document = .null
        default:
            try skipValue(depth: 0)
            document = .other
        }
        skipWhitespace()
        guard position == bytes.count else { throw Malformed() }
        return document
    }

    /// The item's object: every key read, the first value of each known one kept, the others only checked.
    private mutating func object() throws(Malformed) -> Fields {
        position += 1
        var fields = Fields(line: bytes)
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return fields }
        while true {
            skipWhitespace()
            let token = try string()
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { throw Malformed() }
            skipWhitespace()
            // A known key spelt without escapes is found by its bytes; any other is read as text.
            var slot = token.isSimple ? Self.keyBytes.firstIndex { $0.count == token.range.count && $0.elementsEqual(bytes[token.range]) } : nil
            if slot == nil {
                guard let key = Self.text(bytes[token.range], simple: token.isSimple) else { throw Malformed() }
                slot = Self.keys.firstIndex { $0.stringValue == key }
                if slot == nil { fields.unknown.append(key) }
            }
            if let slot, fields.values[slot] == nil {
                fields.values[slot] = try value()
            } else {
                try skipValue(depth: 1)
            }
            skipWhitespace()
            if take(UInt8(ascii: ",")) {
                skipWhitespace()
                if take(UInt8(ascii: "}")) { return fields }
                continue
            }
            guard take(UInt8(ascii: "}")) else { throw Malformed() }
            return fields
        }
    }

    /// A known field's value: an array's elements listed, anything else as a token.
    private mutating func value() throws(Malformed) -> Fields.Value {
        guard peek() == UInt8(ascii: "[") else { return .token(try token(depth: 1)) }
        position += 1
        var elements: [Token] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try token(depth: 2))
            skipWhitespace()
            if take(UInt8(ascii: ",")) {
                skipWhitespace()
                if take(UInt8(ascii: "]")) { return .array(elements) }
                continue
            }
            guard take(UInt8(ascii: "]")) else { throw Malformed() }
            return .array(elements)
        }
    }

    /// One value, checked, as a token; `depth` containers hold it.
    private mutating func token(depth: Int) throws(Malformed) -> Token {
        let start = position
        switch peek() {
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            skipNumber()
            return Token(kind: .number, range: start..<position)
        case UInt8(ascii: "n"):
            try literal("null")
            return Token(kind: .null, range: start..<position)
        default:
            try skipValue(depth: depth)
            return Token(kind: .other, range: start..<position)
        }
    }

    // MARK: Structure

    /// Checks one value of any kind and moves past it, without recursion; `depth` containers hold it, and at
    /// most ``maxDepth`` may be open at once.
    private mutating func skipValue(depth: Int) throws(Malformed) {
        var open: [UInt8] = []
        while true {
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth + open.count < Self.maxDepth else { throw Malformed() }
                let opening = bytes[position]
                position += 1
                skipWhitespace()
                if take(opening == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")) { break }
                open.append(opening)
                if opening == UInt8(ascii: "{") { try key() }
                continue
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): skipNumber()
            default: throw Malformed()
            }
            // After a value: the next one of its container (a trailing comma allowed), or the container's end.
            while let container = open.last {
                let closing = container == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                skipWhitespace()
                if take(UInt8(ascii: ",")) {
                    skipWhitespace()
                    if take(closing) {
                        open.removeLast()
                        continue
                    }
                    if container == UInt8(ascii: "{") { try key() }
                    break
                }
                guard take(closing) else { throw Malformed() }
                open.removeLast()
            }
            if open.isEmpty { return }
        }
    }

    /// A key of a skipped object and its colon.
    private mutating func key() throws(Malformed) {
        skipWhitespace()
        _ = try string()
        skipWhitespace()
        guard take(UInt8(ascii: ":")) else { throw Malformed() }
    }

    private mutating func literal(_ word: StaticString) throws(Malformed) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { throw Malformed() }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { throw Malformed() }
        position += count
    }

    /// Moves past the run of number characters that starts here (checked when the number is read).
    private mutating func skipNumber() {
        position += 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "e"), UInt8(ascii: "E"):
                position += 1
            default: return
            }
        }
    }

    /// A string token: its closing quote found, each backslash skipping the byte after it (`\u` the four after
    /// that, none a quote); its text is checked when read.
    private mutating func string() throws(Malformed) -> Token {
        guard take(UInt8(ascii: "\"")) else { throw Malformed() }
        let start = position
        var simple = true
        while position < bytes.count {
            // The plain bytes skipped eight at a time, then one by one: the common case, most of a line.
            position = bytes.withUnsafeBufferPointer { buffer in
                let raw = UnsafeRawBufferPointer(buffer)
                var index = position
                while raw.count - index >= 8, !Self.holdsQuoteBackslashOrControl(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                    index += 8
                }
                while index < buffer.count, buffer[index] >= 0x20, buffer[index] != UInt8(ascii: "\""), buffer[index] != UInt8(ascii: "\\") {
                    index += 1
                }
                return index
            }
            guard position < bytes.count else { break }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return Token(kind: .string(simple: simple), range: start..<position - 1)
            case UInt8(ascii: "\\"):
                simple = false
                guard position + 1 < bytes.count else { throw Malformed() }
                position += 2
                if bytes[position - 1] == UInt8(ascii: "u") {
                    guard bytes.count - position >= 4, !bytes[position..<position + 4].contains(UInt8(ascii: "\"")) else { throw Malformed() }
                    position += 4
                }
            default:
                if byte < 0x20 { simple = false }
                position += 1
            }
        }
        throw Malformed()
    }

    /// Whether one of the eight bytes of `word` is a quote, a backslash or a control character (the classic
    /// "has a zero byte" and "has a byte less than" bit tricks: exact, no false answer either way).
    private static func holdsQuoteBackslashOrControl(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func holdsZero(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let control = (word &- ones &* 0x20) & ~word & highs != 0
        return control || holdsZero(word ^ (ones &* UInt64(UInt8(ascii: "\"")))) || holdsZero(word ^ (ones &* UInt64(UInt8(ascii: "\\"))))
    }

    // MARK: Reading values

    /// The text of a string's bytes (between its quotes), or `nil` when they are not valid JSON text: escapes,
    /// surrogate pairs, UTF-8, no control characters.
    static func text(_ bytes: ArraySlice<UInt8>, simple: Bool) -> String? {
        if simple { return bytes.withUnsafeBufferPointer(validUTF8) }
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\\"):
                guard index < bytes.endIndex else { return nil }
                let letter = bytes[index]
                index += 1
                switch letter {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(letter)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4(bytes, at: &index) else { return nil }
                    if UTF16.isLeadSurrogate(UInt16(scalar)) {
                        guard bytes.endIndex - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                        index += 2
                        guard let low = hex4(bytes, at: &index), UTF16.isTrailSurrogate(UInt16(low)) else { return nil }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    text.append(contentsOf: UTF8.encode(unicode)!)
                default: return nil
                }
            case ..<0x20: return nil
            default: text.append(byte)
            }
        }
        return text.withUnsafeBufferPointer(validUTF8)
    }

    /// The text of `bytes` when they are valid UTF-8. Decoded by the standard library's fast path, which repairs
    /// what is not UTF-8: valid bytes decode to themselves, invalid ones to a replacement character that differs
    /// from them.
    private static func validUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return "" }
        var text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.count == bytes.count else { return nil }
        return text.withUTF8 { $0.baseAddress.map { memcmp($0, start, bytes.count) == 0 } ?? false } ? text : nil
    }

    private static func hex4(_ bytes: ArraySlice<UInt8>, at index: inout Int) -> UInt32? {
        guard bytes.endIndex - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The value of a number's bytes, or `nil` when they are not JSON's grammar (`-`, no leading zero, a fraction
    /// and an exponent with digits) or the value overflows a `Double` or rounds to zero.
    static func number(_ bytes: ArraySlice<UInt8>) -> Double? {
        var index = bytes.startIndex
        func take(_ byte: UInt8) -> Bool {
            guard index < bytes.endIndex, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        func digits() -> Int {
            let start = index
            while index < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }
        _ = take(UInt8(ascii: "-"))
        if !take(UInt8(ascii: "0")) { guard digits() > 0 else { return nil } }
        if take(UInt8(ascii: ".")) { guard digits() > 0 else { return nil } }
        let significandEnd = index
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { return nil }
        }
        guard index == bytes.endIndex, let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        guard value != 0 || !bytes[..<significandEnd].contains(where: { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return value
    }

    // MARK: Bytes

    /// The next byte; 0 (which starts nothing) at the end.
    private func peek() -> UInt8 {
        position < bytes.count ? bytes[position] : 0
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }
}

extension ItemJSONReader.Token {
    var isNull: Bool {
        if case .null = kind { true } else { false }
    }

    var isString: Bool {
        if case .string = kind { true } else { false }
    }

    var isSimple: Bool {
        if case .string(let simple) = kind { simple } else { false }
    }

    var isNumber: Bool {
        if case .number = kind { true } else { false }
    }

    /// `true`, `false`, or an array or object: not a string (whose range is between its quotes), not a number.
    var isLiteral: Bool {
        if case .other = kind { true } else { false }
    }
}
