public import Foundation

/// What people searched for and opened over a window of days: `scheduler analytics` and `GET /analytics`.
public struct SearchAnalytics: Sendable, Hashable, Encodable {
    /// One query's figures over the window.
    public struct Query: Sendable, Hashable, Encodable {
        /// As counted: its search terms, folded and space-separated.
        public var query: String
        public var searches: Int
        public var withoutHits: Int
        /// Opens of results searched with this query (one per client, item and hour).
        public var opens: Int
        /// Opens per search, `nil` before any search was counted.
        public var clickThrough: Double? { searches > 0 ? Double(opens) / Double(searches) : nil }

        public init(query: String, searches: Int, withoutHits: Int, opens: Int) {
            self.query = query
            self.searches = searches
            self.withoutHits = withoutHits
            self.opens = opens
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(query, forKey: .query)
            try container.encode(searches, forKey: .searches)
            try container.encode(withoutHits, forKey: .withoutHits)
            try container.encode(opens, forKey: .opens)
            try container.encode(clickThrough, forKey: .clickThrough)
        }

        private enum CodingKeys: String, CodingKey { case query, searches, withoutHits, opens, clickThrough }
    }

    /// One item's opens over the window.
    public struct Item: Sendable, Hashable, Encodable {
        public var uniqueIdentifier: String
        /// Its title now; `nil` when it has none.
        public var title: String?
        public var opens: Int

        public init(uniqueIdentifier: String, title: String?, opens: Int) {
            self.uniqueIdentifier = uniqueIdentifier
            self.title = title
            self.opens = opens
        }
    }

    /// The first day counted (UTC).
    public var since: Date
    public var searches: Int
    public var searchesWithoutHits: Int
    public var opens: Int
    /// The queries searched most, most first (ties in byte order).
    public var topQueries: [Query]
    /// The queries that found nothing most often, most first.
    public var queriesWithoutHits: [Query]
    /// The items opened most, most first.
    public var mostOpened: [Item]

    /// The figures stores read: totals and lists, each query's opens looked up in `opensByQuery`.
    public init(
        sinceDay: Int, searches: Int, searchesWithoutHits: Int, opens: Int, topQueries: [(query: String, searches: Int, withoutHits: Int)],
        queriesWithoutHits: [(query: String, searches: Int, withoutHits: Int)], opensByQuery: [String: Int], mostOpened: [Item]
    ) {
        since = Date(timeIntervalSince1970: Double(sinceDay) * 86_400)
        self.searches = searches
        self.searchesWithoutHits = searchesWithoutHits
        self.opens = opens
        func query(_ row: (query: String, searches: Int, withoutHits: Int)) -> Query {
            Query(query: row.query, searches: row.searches, withoutHits: row.withoutHits, opens: opensByQuery[row.query] ?? 0)
        }
        self.topQueries = topQueries.map(query)
        self.queriesWithoutHits = queriesWithoutHits.map(query)
        self.mostOpened = mostOpened
    }

    /// How far back a report looks unless asked, and how many of each list it shows.
    public static let defaultWindow: Duration = .seconds(30 * 86_400)
    public static let defaultLimit = 20
    public static let maxLimit = 1000

    /// The first day of a window of `window` ending today (`now`): `7d` covers today and the 6 days before.
    public static func firstDay(of window: Duration, now: Date) -> Int {
        UsageDay.of(now) - max(1, UsageDay.count(in: window)) + 1
    }

    /// The queries whose opens a store looks up: those of both lists.
    public static func listedQueries(_ lists: [(query: String, searches: Int, withoutHits: Int)]...) -> [String] {
        var seen = Set<[UInt8]>()
        return lists.joined().map(\.query).filter { seen.insert(Array($0.utf8)).inserted }
    }
}
