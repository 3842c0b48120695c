extension TOMLReader {
    /// Reads the whole document: lines of `key = value`, `[table]` and `[[array of tables]]` headers, comments
    /// and blank lines.
    mutating func readDocument() throws(TOMLError) -> TOMLTable {
        try countValue(at: start)
        let root = TOMLTableBuilder(origin: .defined, mark: mark(at: start), depth: 0)
        var table = root
        while true {
            skipSpaces()
            if atEnd { break }
            switch current {
            case UInt8(ascii: "#"):
                try skipComment()
                try endLine(after: "the comment")
            case 0x0A, 0x0D:
                try endLine(after: "the line")
            case UInt8(ascii: "["):
                section &+= 1
                table = try readHeader(root: root)
            default:
                let key = try readKey(context: "at the start of the line")
                skipSpaces()
                guard current == UInt8(ascii: "=") else {
                    throw failure("expected '=' after the key \(TOMLErrorText.key(key.map(\.name))), found \(describe(at: pos)); write key = value")
                }
                pos &+= 1
                skipSpaces()
                let node = try readValue(depth: table.depth &+ key.count)
                try insert(key, node, into: table)
                try endLine(after: "the value of \(TOMLErrorText.key(key.map(\.name)))")
            }
        }
        return root.finish()
    }

    /// Reads a `[table]` or `[[array of tables]]` header and returns the table the lines below it fill.
    private mutating func readHeader(root: TOMLTableBuilder) throws(TOMLError) -> TOMLTableBuilder {
        let headerStart = pos
        let mark = mark(at: pos)
        pos &+= 1
        let isArray = current == UInt8(ascii: "[")
        if isArray { pos &+= 1 }
        skipSpaces()
        let key = try readKey(context: isArray ? "in the [[…]] header" : "in the […] header")
        skipSpaces()
        let close = isArray ? "']]'" : "']'"
        guard current == UInt8(ascii: "]"), !isArray || byte(pos &+ 1) == UInt8(ascii: "]") else {
            let offending = current == UInt8(ascii: "]") ? pos &+ 1 : pos
            throw failure("expected \(close) to close the \(isArray ? "array-of-tables" : "table") header, found \(describe(at: offending)); write \(isArray ? "[[name]]" : "[name]") on one line", at: offending)
        }
        pos &+= isArray ? 2 : 1
        let table = try open(key, isArray: isArray, mark: mark, at: headerStart, root: root)
        try endLine(after: "the header")
        return table
    }

    /// The table a header names, made or defined as the rules allow (see ``TOMLTableBuilder``).
    private mutating func open(_ key: [TOMLKeyPart], isArray: Bool, mark: TOMLMark, at headerStart: Int, root: TOMLTableBuilder) throws(TOMLError) -> TOMLTableBuilder {
        var table = root
        for (index, part) in key.enumerated() {
            let path = TOMLErrorText.key(key.prefix(index &+ 1).map(\.name))
            let isLast = index == key.count &- 1
            guard let (slot, keyMark) = table[part.name] else {
                guard table.depth &+ (isLast && isArray ? 2 : 1) <= maxDepth else {
                    throw failure("tables nested deeper than \(maxDepth) levels are not read; shorten the header", at: part.offset)
                }
                try countValue(at: part.offset)
                if isLast && isArray {
                    try countValue(at: part.offset)
                    let element = TOMLTableBuilder(origin: .defined, mark: mark, depth: table.depth &+ 2)
                    table.add(part.name, .tableArray(TOMLTableArrayBuilder(mark: mark, depth: table.depth &+ 1, first: element)), at: part.mark)
                    return element
                }
                let child = TOMLTableBuilder(origin: isLast ? .defined : .implicit, mark: isLast ? mark : part.mark, depth: table.depth &+ 1)
                table.add(part.name, .table(child), at: part.mark)
                table = child
                continue
            }
            switch slot {
            case .value(let node):
                throw failure(Self.notATable(path, node, at: keyMark, by: "a [header]"), at: part.offset)
            case .tableArray(let array):
                if isLast {
                    guard isArray else {
                        throw failure("\(path) is an array of tables ([[\(path)]] at \(array.mark)); write [[\(path)]] to add a table to it", at: headerStart)
                    }
                    guard array.depth &+ 1 <= maxDepth else {
                        throw failure("tables nested deeper than \(maxDepth) levels are not read; shorten the header", at: part.offset)
                    }
                    try countValue(at: part.offset)
                    let element = TOMLTableBuilder(origin: .defined, mark: mark, depth: array.depth &+ 1)
                    array.append(element, parent: table, name: part.name)
                    return element
                }
                guard let last = array.last else { return table }
                table = last
            case .table(let child):
                if isLast {
                    if isArray {
                        throw failure("\(path) is already a table (at \(child.mark)), so [[\(path)]] cannot make it an array of tables; rename one of them", at: headerStart)
                    }
                    switch child.origin {
                    case .implicit:
                        child.origin = .defined
                        child.mark = mark
                        return child
                    case .defined:
                        throw failure("the table [\(path)] is already defined at \(child.mark); a table is defined once, so put these keys under that header", at: headerStart)
                    case .dotted:
                        throw failure("the table \(path) was already made by dotted keys at \(child.mark); it cannot also have a [\(path)] header, so add its keys there", at: headerStart)
                    }
                }
                table = child
            }
        }
        return table
    }

    /// Puts `node` under the dotted `key` in `table`, making the tables the dots name as the rules allow (see
    /// ``TOMLTableBuilder``).
    mutating func insert(_ key: [TOMLKeyPart], _ node: TOMLNode, into base: TOMLTableBuilder) throws(TOMLError) {
        var table = base
        /// The key up to part `index`, from the root, as messages show it.
        func path(_ index: Int) -> String { TOMLErrorText.key(base.path + key.prefix(index &+ 1).map(\.name)) }
        for (index, part) in key.enumerated() {
            guard index < key.count &- 1 else {
                if let (existing, keyMark) = table[part.name] {
                    let what: String
                    switch existing {
                    case .value(let node): what = TOMLErrorText.article(node.value.typeName)
                    case .table: what = "a table"
                    case .tableArray: what = "an array of tables"
                    }
                    throw failure("the key \(path(index)) is already defined, as \(what), at \(keyMark); each key is defined once, so remove or rename one", at: part.offset)
                }
                table.add(part.name, .value(node), at: part.mark)
                return
            }
            guard let (slot, keyMark) = table[part.name] else {
                guard table.depth < maxDepth else {
                    throw failure("a dotted key nests tables deeper than \(maxDepth) levels; flatten it", at: part.offset)
                }
                try countValue(at: part.offset)
                let child = TOMLTableBuilder(origin: .dotted(section: section), mark: part.mark, depth: table.depth &+ 1)
                table.add(part.name, .table(child), at: part.mark)
                table = child
                continue
            }
            switch slot {
            case .value(let node):
                throw failure(Self.notATable(path(index), node, at: keyMark, by: "a dotted key"), at: part.offset)
            case .tableArray(let array):
                throw failure("\(path(index)) is an array of tables ([[\(path(index))]] at \(array.mark)); add keys to its tables under their [[\(path(index))]] headers", at: part.offset)
            case .table(let child):
                switch child.origin {
                case .implicit:
                    child.origin = .dotted(section: section)
                case .dotted(section: let made) where made == section:
                    break
                case .dotted:
                    throw failure("the table \(path(index)) was made by dotted keys in an earlier section (at \(child.mark)); dotted keys cannot add to it from here, so write the key there", at: part.offset)
                case .defined:
                    throw failure("the table \(path(index)) is defined by its header at \(child.mark); a dotted key cannot add to it, so write the key under [\(path(index))]", at: part.offset)
                }
                table = child
            }
        }
    }

    /// Why a key holding a finished value cannot be opened as a table by `what`.
    private static func notATable(_ path: String, _ node: TOMLNode, at keyMark: TOMLMark, by what: String) -> String {
        switch node.value {
        case .table:
            "\(path) is an inline table (at \(keyMark)), complete as written: \(what) cannot add to it, so write the keys inside its { }"
        case .array:
            "\(path) is an array value (at \(keyMark)), complete as written: \(what) cannot add to it, so write its tables as [[\(path)]] instead"
        default:
            "\(path) is already \(TOMLErrorText.article(node.value.typeName)) (at \(keyMark)), so it cannot hold keys; rename one of them"
        }
    }
}
