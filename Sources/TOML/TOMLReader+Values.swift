extension TOMLReader {
    /// An array or inline table whose elements are being read.
    private struct Frame {
        let mark: TOMLMark
        /// The level of the array or inline table itself.
        let depth: Int
        /// The inline table being filled; `nil` for an array.
        let table: TOMLTableBuilder?
        /// The elements read so far, for an array.
        var elements: [TOMLNode] = []
        /// The key whose value is being read, for an inline table.
        var key: [TOMLKeyPart] = []
    }

    /// Reads one value where reading is, a value at level `depth` (the level an array or inline table written
    /// here would have). Arrays and inline tables are read on an explicit stack, never by recursion, and refused
    /// when deeper than `maxDepth`.
    mutating func readValue(depth startDepth: Int) throws(TOMLError) -> TOMLNode {
        var frames: [Frame] = []
        var depth = startDepth
        while true {
            let node: TOMLNode
            if current == UInt8(ascii: "[") || current == UInt8(ascii: "{") {
                guard let empty = try open(depth: &depth, frames: &frames) else { continue }
                node = empty
            } else {
                node = try readScalar()
            }
            if let value = try handOver(node, frames: &frames, depth: &depth) { return value }
        }
    }

    /// Opens the array or inline table where reading is, at level `depth`: its node when it is empty, else `nil`,
    /// with its frame pushed and `depth` its first value's.
    private mutating func open(depth: inout Int, frames: inout [Frame]) throws(TOMLError) -> TOMLNode? {
        guard depth <= maxDepth else {
            throw failure("arrays and tables nested deeper than \(maxDepth) levels are not read; flatten the data")
        }
        let first = current
        try countValue(at: pos)
        let mark = mark(at: pos)
        pos &+= 1
        if first == UInt8(ascii: "[") {
            try skipBlank()
            if current == UInt8(ascii: "]") {
                pos &+= 1
                return TOMLNode(.array([]), mark: mark)
            }
            frames.append(Frame(mark: mark, depth: depth, table: nil))
            depth &+= 1
            return nil
        }
        skipSpaces()
        if current == UInt8(ascii: "}") {
            pos &+= 1
            return TOMLNode(.table(TOMLTable()), mark: mark)
        }
        let key = try readInlineKey()
        frames.append(Frame(mark: mark, depth: depth, table: TOMLTableBuilder(origin: .defined, mark: mark, depth: depth), key: key))
        depth = depth &+ key.count
        return nil
    }

    /// Hands `node` to the array or inline table it is in, closing those that end after it: the whole value once
    /// no frame is left, else `nil`, with `depth` the next value's.
    private mutating func handOver(_ value: TOMLNode, frames: inout [Frame], depth: inout Int) throws(TOMLError) -> TOMLNode? {
        var node = value
        while let top = frames.indices.last {
            if let table = frames[top].table {
                try insert(frames[top].key, node, into: table)
                skipSpaces()
                if current == UInt8(ascii: ",") {
                    pos &+= 1
                    skipSpaces()
                    if current == UInt8(ascii: "}") {
                        throw failure("an inline table takes no comma after its last value (TOML 1.0); remove it")
                    }
                    let key = try readInlineKey()
                    frames[top].key = key
                    depth = frames[top].depth &+ key.count
                    return nil
                }
                guard current == UInt8(ascii: "}") else {
                    throw inlineTableFailure(opened: frames[top].mark, expecting: "',' or '}'")
                }
                pos &+= 1
                let frame = frames.removeLast()
                node = TOMLNode(.table(table.finish()), mark: frame.mark)
            } else {
                frames[top].elements.append(node)
                if try nextArrayElement(openedAt: frames[top].mark) {
                    depth = frames[top].depth &+ 1
                    return nil
                }
                let frame = frames.removeLast()
                node = TOMLNode(.array(frame.elements), mark: frame.mark)
            }
        }
        return node
    }

    /// After an element of the array opened at `mark`: whether another element follows (past its comma), else the
    /// array is closed (past its `]`).
    private mutating func nextArrayElement(openedAt mark: TOMLMark) throws(TOMLError) -> Bool {
        try skipBlank()
        if current == UInt8(ascii: ",") {
            pos &+= 1
            try skipBlank()
            if current != UInt8(ascii: "]") { return true }
        } else if current != UInt8(ascii: "]") {
            if atEnd {
                throw failure("the array opened at \(mark) is not closed; end it with ']'")
            }
            throw failure("expected ',' or ']' after an array element, found \(describe(at: pos)); separate elements with commas")
        }
        pos &+= 1
        return false
    }

    /// Reads `key =` inside an inline table, up to the value.
    private mutating func readInlineKey() throws(TOMLError) -> [TOMLKeyPart] {
        if current == UInt8(ascii: "\n") || current == UInt8(ascii: "\r") || current == UInt8(ascii: "#") || atEnd {
            throw inlineTableFailure(opened: nil, expecting: "a key")
        }
        let key = try readKey(context: "in the inline table")
        skipSpaces()
        guard current == UInt8(ascii: "=") else {
            throw failure("expected '=' after the key \(TOMLErrorText.key(key.map(\.name))), found \(describe(at: pos)); write key = value")
        }
        pos &+= 1
        skipSpaces()
        return key
    }

    private mutating func inlineTableFailure(opened: TOMLMark?, expecting: String) -> TOMLError {
        if current == UInt8(ascii: "\n") || current == UInt8(ascii: "\r") || current == UInt8(ascii: "#") {
            return failure("an inline table { … } stays on one line, without comments (TOML 1.0); close it with '}' on this line or use a [table] header")
        }
        if atEnd {
            return failure("the inline table is not closed; end it with '}'")
        }
        return failure("expected \(expecting) in the inline table, found \(describe(at: pos))")
    }

    /// Reads a string, number, boolean, date or time.
    private mutating func readScalar() throws(TOMLError) -> TOMLNode {
        let first = pos
        try countValue(at: first)
        let mark = mark(at: first)
        let value: TOMLValue
        switch current {
        case UInt8(ascii: "\""):
            if byte(pos &+ 1) == UInt8(ascii: "\""), byte(pos &+ 2) == UInt8(ascii: "\"") {
                value = .string(try readMultilineBasicString())
            } else {
                value = .string(try readBasicString())
            }
        case UInt8(ascii: "'"):
            if byte(pos &+ 1) == UInt8(ascii: "'"), byte(pos &+ 2) == UInt8(ascii: "'") {
                value = .string(try readMultilineLiteralString())
            } else {
                value = .string(try readLiteralString())
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            value = try readBoolean()
        case _ where atDate:
            value = try readDateOrDateTime()
        case _ where atTime(pos):
            value = try readLocalTime()
        case 0x30...0x39, UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "i"), UInt8(ascii: "n"):
            value = try readNumber()
        default:
            if atEnd || current == 0x0A || current == 0x0D || current == UInt8(ascii: "#") {
                throw failure("expected a value after '=', found \(describe(at: pos)); write a string, number, boolean, date, array or inline table")
            }
            var hint = ""
            if Self.isBareKey(current) { hint = "; text needs quotes, as in \"text\", and booleans are lower case" }
            throw failure("expected a value (a string, number, boolean, date, array or inline table), found \(describe(at: pos))\(hint)")
        }
        if Self.isBareKey(current) || current == UInt8(ascii: ".") {
            throw failure("unexpected \(describe(at: pos)) right after the value; separate values with ',' or end the line")
        }
        return TOMLNode(value, mark: mark)
    }

    private mutating func readBoolean() throws(TOMLError) -> TOMLValue {
        for (word, value) in [("true", true), ("false", false)] {
            let letters = Array(word.utf8)
            let matches = letters.indices.allSatisfy { byte(pos &+ $0) == letters[$0] }
            if matches, !Self.isBareKey(byte(pos &+ letters.count)) {
                pos &+= letters.count
                return .boolean(value)
            }
        }
        throw failure("expected a value, found \(describe(at: pos)); booleans are true and false, and text needs quotes, as in \"text\"")
    }
}
