public import Indexing

/// What people searched for and opened (``SearchUsage``), as the databases keep it.
extension MemorySearchIndex {
    public func recordOpens(_ tallies: [OpenTally]) async throws {
        tables.change { $0.record(tallies) }
    }

    public func openTallies(identifier: String) async throws -> [OpenTally] {
        tables.read { tables in
            (tables.opens[ExactText(identifier)]?.counts ?? [:])
                .sorted { $0.key.query == $1.key.query ? $0.key.day < $1.key.day : $0.key.query.utf8.lexicographicallyPrecedes($1.key.query.utf8) }
                .map { OpenTally(key: OpenTally.Key(day: $0.key.day, identifier: identifier, query: $0.key.query.isEmpty ? nil : $0.key.query), opens: $0.value) }
        }
    }

    public func recordSearches(_ tallies: [SearchTally]) async throws {
        tables.change { tables in
            for tally in SearchTally.merged(tallies) {
                let key = MemoryTables.SearchDay(query: ExactText(tally.query), day: tally.day)
                let (searches, withoutHits) = tables.searches[key] ?? (0, 0)
                tables.searches[key] = (searches + tally.searches, withoutHits + tally.withoutHits)
            }
        }
    }

    @discardableResult
    public func deleteUsage(before day: Int) async throws -> Int {
        tables.change { tables in
            let searches = tables.searches.count
            tables.searches = tables.searches.filter { $0.key.day >= day }
            return tables.deleteOpens(before: day) + searches - tables.searches.count
        }
    }

    public func analytics(since day: Int, limit: Int) async throws -> SearchAnalytics {
        tables.read { tables in
            var byQuery: [ExactText: (query: String, searches: Int, withoutHits: Int)] = [:]
            for (key, counts) in tables.searches where key.day >= day {
                let text = String(decoding: key.query.bytes, as: UTF8.self)
                let sum = byQuery[key.query] ?? (text, 0, 0)
                byQuery[key.query] = (text, sum.searches + counts.searches, sum.withoutHits + counts.withoutHits)
            }
            func first(_ rows: [(query: String, searches: Int, withoutHits: Int)], by count: (Int, Int) -> Int) -> [(query: String, searches: Int, withoutHits: Int)] {
                Array(rows.sorted { left, right in
                    let (a, b) = (count(left.searches, left.withoutHits), count(right.searches, right.withoutHits))
                    return a != b ? a > b : left.query.utf8.lexicographicallyPrecedes(right.query.utf8)
                }.prefix(limit))
            }
            let top = first(Array(byQuery.values)) { searches, _ in searches }
            let withoutHits = first(byQuery.values.filter { $0.withoutHits > 0 }) { _, withoutHits in withoutHits }
            var opensByQuery: [String: Int] = [:]
            var opensByItem: [ExactText: Int] = [:]
            let listed = Set(SearchAnalytics.listedQueries(top, withoutHits).map(ExactText.init))
            for (identifier, entry) in tables.opens {
                for (key, count) in entry.counts where key.day >= day {
                    if key.query.isEmpty {
                        opensByItem[identifier, default: 0] += count
                    } else if listed.contains(ExactText(key.query)) {
                        opensByQuery[key.query, default: 0] += count
                    }
                }
            }
            let mostOpened = opensByItem.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.bytes.lexicographicallyPrecedes($1.key.bytes) }
                .prefix(limit).map { identifier, opens in
                    SearchAnalytics.Item(
                        uniqueIdentifier: String(decoding: identifier.bytes, as: UTF8.self), title: tables.rows[identifier]?.item.title, opens: opens
                    )
                }
            return SearchAnalytics(
                sinceDay: day, searches: byQuery.values.reduce(0) { $0 + $1.searches },
                searchesWithoutHits: byQuery.values.reduce(0) { $0 + $1.withoutHits }, opens: opensByItem.values.reduce(0, +), topQueries: top,
                queriesWithoutHits: withoutHits, opensByQuery: opensByQuery, mostOpened: Array(mostOpened)
            )
        }
    }
}
