/// Opens of one item on one day (UTC), in all or for one query: what the service adds to the store's counts.
public struct OpenTally: Sendable, Hashable {
    /// What a count is kept by. Compared byte for byte, as the stores compare text: the composed and decomposed
    /// spellings of "café" are two identifiers.
    public struct Key: Sendable, Hashable {
        /// Days since 1970-01-01, UTC.
        public var day: Int
        public var identifier: String
        /// The query text, folded (``OpenTally/foldedQuery(_:)``); `nil` (or empty) for the item's count over every query.
        public var query: String?

        public init(day: Int, identifier: String, query: String?) {
            self.day = day
            self.identifier = identifier
            self.query = query?.isEmpty == true ? nil : query
        }

        public static func == (left: Key, right: Key) -> Bool {
            left.day == right.day && left.identifier.utf8.elementsEqual(right.identifier.utf8)
                && (left.query?.utf8).map { right.query?.utf8.elementsEqual($0) ?? false } ?? (right.query == nil)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(day)
            hasher.combine(identifier.utf8.count)
            for byte in identifier.utf8 { hasher.combine(byte) }
            if let query { for byte in query.utf8 { hasher.combine(byte) } }
        }
    }

    /// The most queries an item's opens are counted under on one day: past them, opens count for the item only, so a
    /// client inventing queries cannot grow the counts without bound.
    public static let maxQueriesPerItemAndDay = 100

    public var key: Key
    public var opens: Int

    public init(key: Key, opens: Int) {
        self.key = key
        self.opens = opens
    }

    /// The query text opens are counted under: its search terms (folded, distinct, at most
    /// ``SearchTerms/maxTerms``), space-separated; `nil` when it holds no word.
    public static func foldedQuery(_ text: String) -> String? {
        let words = SearchTerms(text).words
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// `tallies` with the opens of equal keys added up, ordered by identifier, query and day (bytewise): the order
    /// in which a store takes their rows, so that writers never wait on each other in a cycle.
    public static func merged(_ tallies: [OpenTally]) -> [OpenTally] {
        var opens: [Key: Int] = [:]
        for tally in tallies { opens[tally.key, default: 0] += tally.opens }
        return opens.map { OpenTally(key: $0.key, opens: $0.value) }.sorted { left, right in
            let (a, b) = (left.key, right.key)
            if !a.identifier.utf8.elementsEqual(b.identifier.utf8) { return a.identifier.utf8.lexicographicallyPrecedes(b.identifier.utf8) }
            let (aq, bq) = (a.query ?? "", b.query ?? "")
            if !aq.utf8.elementsEqual(bq.utf8) { return aq.utf8.lexicographicallyPrecedes(bq.utf8) }
            return a.day < b.day
        }
    }
}
