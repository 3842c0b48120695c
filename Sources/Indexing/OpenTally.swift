/// Opens of one item on one day (UTC), in all or for one query: what the service adds to the store's counts.
public struct OpenTally: Sendable, Hashable {
    /// What a count is kept by.
    public struct Key: Sendable, Hashable {
        /// Days since 1970-01-01, UTC.
        public var day: Int
        public var identifier: String
        /// The query text, folded (``OpenTally/foldedQuery(_:)``); `nil` for the item's count over every query.
        public var query: String?

        public init(day: Int, identifier: String, query: String?) {
            self.day = day
            self.identifier = identifier
            self.query = query
        }
    }

    public var key: Key
    public var opens: Int

    public init(key: Key, opens: Int) {
        self.key = key
        self.opens = opens
    }
}

extension OpenTally {
    /// The query text opens are counted under: its search terms (folded, distinct, at most
    /// ``SearchTerms/maxTerms``), space-separated; `nil` when it holds no word.
    public static func foldedQuery(_ text: String) -> String? {
        let words = SearchTerms(text).words
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
