/// A table while the document is read: mutable, so headers and dotted keys can add to it in place, and aware of
/// how it was defined, which decides who may add to it later. Finished into a ``TOMLTable`` once complete.
///
/// The rules (TOML 1.0, as the reference decoders apply them):
/// - a table named by a `[header]` is defined there, once; its super-tables that no header named are implicit, and
///   may be defined by a later header once;
/// - a table made by dotted keys (`a.b = 1` makes `a`) takes more dotted keys in the same section only, and never a
///   `[header]` of its own (its sub-tables may have headers);
/// - an inline table (`{ }`) and a static array (`[ ]`) are complete values: nothing is added to them afterwards;
/// - `[[name]]` appends a table to an array of tables it made, and to nothing else.
final class TOMLTableBuilder {
    /// How the table came to be.
    enum Origin: Equatable {
        /// Made as the parent of a header's table (`a` in `[a.b]`); a header may still define it.
        case implicit
        /// Defined: the document root, a `[header]`, an element of `[[header]]`, an inline table.
        case defined
        /// Made by a dotted key in the section numbered `section`.
        case dotted(section: Int)
    }

    /// What a key holds while the document is read.
    enum Slot {
        /// A finished value: a scalar, a static array, an inline table.
        case value(TOMLNode)
        /// A table still open to headers or dotted keys.
        case table(TOMLTableBuilder)
        /// An array of tables made by `[[header]]`, never empty.
        case tableArray(TOMLTableArrayBuilder)

        /// Where the key's value was first written.
        var mark: TOMLMark {
            switch self {
            case .value(let node): node.mark
            case .table(let table): table.mark
            case .tableArray(let array): array.mark
            }
        }
    }

    var origin: Origin
    var mark: TOMLMark
    /// Levels below the root: the root is 0, its tables 1.
    let depth: Int
    /// The table this one is under (for an element of an array of tables, the table holding the array) and its key
    /// there, for messages; `nil` for the root and inline tables.
    private(set) weak var parent: TOMLTableBuilder?
    private(set) var name = ""
    private(set) var keys: [String] = []
    /// Where each key is written.
    private(set) var keyMarks: [TOMLMark] = []
    private(set) var slots: [Slot] = []
    private var positions: [String: Int] = [:]

    init(origin: Origin, mark: TOMLMark, depth: Int) {
        self.origin = origin
        self.mark = mark
        self.depth = depth
    }

    /// What `key` holds, and where the key is written.
    subscript(key: String) -> (slot: Slot, keyMark: TOMLMark)? {
        guard let position = positions[key], slots.indices.contains(position), keyMarks.indices.contains(position) else { return nil }
        return (slots[position], keyMarks[position])
    }

    /// Adds `key`, which the caller made sure is new, written at `keyMark`.
    func add(_ key: String, _ slot: Slot, at keyMark: TOMLMark) {
        positions[key] = slots.count
        keys.append(key)
        keyMarks.append(keyMark)
        slots.append(slot)
        switch slot {
        case .table(let child): child.adopt(by: self, as: key)
        case .tableArray(let array): array.last?.adopt(by: self, as: key)
        case .value: break
        }
    }

    /// Records where this table is, for messages.
    func adopt(by parent: TOMLTableBuilder, as name: String) {
        self.parent = parent
        self.name = name
    }

    /// The keys from the root (or the enclosing inline table) down to this table.
    var path: [String] {
        var names: [String] = []
        var table: TOMLTableBuilder? = self
        while let current = table, let parent = current.parent {
            names.append(current.name)
            table = parent
        }
        return names.reversed()
    }

    /// The finished table, with every table below it finished. Iterative, not recursive: the tree's depth costs
    /// no stack.
    func finish() -> TOMLTable {
        /// A table or an array of tables whose parts are being finished.
        struct Frame {
            let table: TOMLTableBuilder?
            let array: TOMLTableArrayBuilder?
            var next = 0
            var entries: [TOMLEntry] = []
            var elements: [TOMLNode] = []
        }
        var frames = [Frame(table: self, array: nil)]
        while let top = frames.indices.last {
            var done: TOMLNode?
            if let table = frames[top].table {
                let next = frames[top].next
                if next < table.slots.count {
                    frames[top].next = next + 1
                    switch table.slots[next] {
                    case .value(let node):
                        frames[top].entries.append(TOMLEntry(key: table.keys[next], node: node))
                    case .table(let child):
                        frames.append(Frame(table: child, array: nil))
                    case .tableArray(let array):
                        frames.append(Frame(table: nil, array: array))
                    }
                    continue
                }
                let frame = frames.removeLast()
                let finished = TOMLTable(frame.entries)
                guard !frames.isEmpty else { return finished }
                done = TOMLNode(.table(finished), mark: table.mark)
            } else if let array = frames[top].array {
                let next = frames[top].next
                if next < array.elements.count {
                    frames[top].next = next + 1
                    frames.append(Frame(table: array.elements[next], array: nil))
                    continue
                }
                let frame = frames.removeLast()
                done = TOMLNode(.array(frame.elements), mark: array.mark)
            } else {
                frames.removeLast()
            }
            // Hand the finished node to its parent: an entry of a table, or an element of an array of tables.
            guard let node = done, let parent = frames.indices.last else { continue }
            if let table = frames[parent].table {
                let key = table.keys[frames[parent].next - 1]
                frames[parent].entries.append(TOMLEntry(key: key, node: node))
            } else {
                frames[parent].elements.append(node)
            }
        }
        return TOMLTable()
    }
}

/// An array of tables made by `[[header]]` while the document is read: each header appends a table.
final class TOMLTableArrayBuilder {
    let mark: TOMLMark
    /// Levels below the root of the array itself; its tables are one deeper.
    let depth: Int
    private(set) var elements: [TOMLTableBuilder]

    init(mark: TOMLMark, depth: Int, first: TOMLTableBuilder) {
        self.mark = mark
        self.depth = depth
        elements = [first]
    }

    /// Adds a table made by another `[[header]]`, under `parent` as `name`.
    func append(_ table: TOMLTableBuilder, parent: TOMLTableBuilder, name: String) {
        table.adopt(by: parent, as: name)
        elements.append(table)
    }

    /// The table the latest `[[header]]` opened, where headers below this name go.
    var last: TOMLTableBuilder? { elements.last }
}
