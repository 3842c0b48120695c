/// Searches for one query (folded, ``OpenTally/foldedQuery(_:)``) on one day (UTC), and how many found nothing.
public struct SearchTally: Sendable, Hashable {
    /// Days since 1970-01-01, UTC.
    public var day: Int
    public var query: String
    public var searches: Int
    public var withoutHits: Int

    public init(day: Int, query: String, searches: Int, withoutHits: Int) {
        self.day = day
        self.query = query
        self.searches = searches
        self.withoutHits = withoutHits
    }

    /// `tallies` with equal days and queries (bytewise) added up, ordered by query then day: the order in which a store
    /// takes their rows.
    public static func merged(_ tallies: [SearchTally]) -> [SearchTally] {
        var merged: [[UInt8]: [Int: SearchTally]] = [:]
        for tally in tallies {
            let key = Array(tally.query.utf8)
            if var existing = merged[key]?[tally.day] {
                existing.searches += tally.searches
                existing.withoutHits += tally.withoutHits
                merged[key]![tally.day] = existing
            } else {
                merged[key, default: [:]][tally.day] = tally
            }
        }
        return merged.sorted { $0.key.lexicographicallyPrecedes($1.key) }.flatMap { $0.value.values.sorted { $0.day < $1.day } }
    }
}
