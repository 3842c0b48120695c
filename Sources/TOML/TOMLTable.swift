/// A TOML table: its keys and values in document order, with a lookup by key that does not search.
public struct TOMLTable: Sendable, Equatable {
    /// The keys and values in the order the document first wrote them.
    public private(set) var entries: [TOMLEntry]
    /// Where each key is in `entries`.
    private var positions: [String: Int]

    /// A table of `entries`; a key written twice is found at its first entry.
    public init(_ entries: [TOMLEntry] = []) {
        self.entries = entries
        positions = Dictionary(minimumCapacity: entries.count)
        for (position, entry) in entries.enumerated() where positions[entry.key] == nil {
            positions[entry.key] = position
        }
    }

    /// The value under `key`, if any.
    public subscript(key: String) -> TOMLNode? {
        guard let position = positions[key], entries.indices.contains(position) else { return nil }
        return entries[position].node
    }

    /// The keys in document order.
    public var keys: [String] { entries.map(\.key) }

    /// How many keys the table has.
    public var count: Int { entries.count }

    /// Whether the table has no keys.
    public var isEmpty: Bool { entries.isEmpty }

    /// Tables are equal when they hold the same keys with equal values in the same order.
    public static func == (lhs: TOMLTable, rhs: TOMLTable) -> Bool { lhs.entries == rhs.entries }
}

/// A key of a table and its value.
public struct TOMLEntry: Sendable, Equatable {
    /// The key, unquoted and unescaped (one part of a dotted key).
    public var key: String
    /// The value, with where it is written.
    public var node: TOMLNode

    public init(key: String, node: TOMLNode) {
        self.key = key
        self.node = node
    }
}
