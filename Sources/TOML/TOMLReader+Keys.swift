/// One part of a key (`a`, `"b c"` and `'d'` in `a."b c".'d'`), with where it is written.
struct TOMLKeyPart {
    var name: String
    var offset: Int
    var mark: TOMLMark
}

extension TOMLReader {
    /// Reads a key: bare, quoted or dotted parts, spaces allowed around the dots. Refused past `maxDepth + 1`
    /// parts, before they cost anything more; `context` names where the key is, for messages.
    mutating func readKey(context: String) throws(TOMLError) -> [TOMLKeyPart] {
        var parts: [TOMLKeyPart] = []
        while true {
            let offset = pos
            let name: String
            switch current {
            case UInt8(ascii: "\""):
                if byte(pos &+ 1) == UInt8(ascii: "\""), byte(pos &+ 2) == UInt8(ascii: "\"") {
                    throw failure("a key cannot be a multi-line string (\"\"\"); write it in single double quotes")
                }
                name = try readBasicString()
            case UInt8(ascii: "'"):
                if byte(pos &+ 1) == UInt8(ascii: "'"), byte(pos &+ 2) == UInt8(ascii: "'") {
                    throw failure("a key cannot be a multi-line string ('''); write it in single quotes")
                }
                name = try readLiteralString()
            case let byte where Self.isBareKey(byte):
                while Self.isBareKey(current) { pos &+= 1 }
                name = String(decoding: bytes[offset..<pos], as: UTF8.self)
            default:
                let what = parts.isEmpty ? "a key" : "a key part after '.'"
                throw failure("expected \(what) \(context), found \(describe(at: pos)); keys are bare (A-Z a-z 0-9 _ -) or quoted (\"a b\", 'a b')")
            }
            // A part read without error asks for no position, so its start's line and column still come in order.
            parts.append(TOMLKeyPart(name: name, offset: offset, mark: mark(at: offset)))
            if parts.count > maxDepth &+ 1 {
                throw failure("a key of more than \(maxDepth &+ 1) dotted parts nests deeper than the limit of \(maxDepth) levels; flatten it", at: offset)
            }
            let afterPart = pos
            skipSpaces()
            guard current == UInt8(ascii: ".") else {
                pos = afterPart
                return parts
            }
            pos &+= 1
            skipSpaces()
        }
    }
}
