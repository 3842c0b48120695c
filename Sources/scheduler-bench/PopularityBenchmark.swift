import Foundation
import Indexing
import Logging
import SQLiteStore
import SchedulerService

/// `scheduler-bench --popularity DATABASE|URL`: what the lift of opens (``Popularity``) costs a search. Records opens
/// on the index (every fifth item opened 1–20 times today, and five items under each of the measured queries), then
/// searches 400 never-repeated typed queries with the lift off and on, alternated query by query (and which goes
/// first), without the result cache. Writes opens into the index it is given: use a copy.
enum PopularityBenchmark {
    static func run(target: String) async throws {
        if target.hasPrefix("postgres://") || target.hasPrefix("postgresql://") {
            return try await PostgresBenchmark.withStore(url: target) { index in try await measure(index, label: "PostgreSQL: ") }
        }
        try await measure(try await Benchmark.searchedIndex(target), label: "SQLite: ")
    }

    static func measure(_ index: any SearchIndex, label: String) async throws {
        let items = try await index.itemCountsByDomain().values.reduce(0, +)
        let today = UsageDay.of(Date())
        let queries = Benchmark.typedQueries(400, seed: 11)
        var random = SplitMix64(seed: 31)
        var tallies = stride(from: 0, to: items, by: 5).map { number in
            OpenTally(key: OpenTally.Key(day: today, identifier: "item-\(number)", query: nil), opens: 1 + number % 20)
        }
        for query in queries {
            guard let folded = OpenTally.foldedQuery(query) else { continue }
            for _ in 0..<5 {
                tallies.append(OpenTally(key: OpenTally.Key(day: today, identifier: "item-\(random.next() % UInt64(max(items, 1)))", query: folded), opens: 3))
            }
        }
        let start = ContinuousClock.now
        for chunk in stride(from: 0, to: tallies.count, by: 5_000) {
            try await index.recordOpens(Array(tallies[chunk..<min(chunk + 5_000, tallies.count)]))
        }
        print("\(label)recorded \(tallies.count) open counts over \(items) items in \(ContinuousClock.now - start)")
        var off: [Duration] = [], on: [Duration] = [], reordered = 0
        for (number, text) in queries.enumerated() {
            func timed(_ query: SearchQuery) async throws -> (SearchResults, Duration) {
                let start = ContinuousClock.now
                let results = try await index.search(query)
                return (results, ContinuousClock.now - start)
            }
            let plain = try SearchQuery(text: text, limit: 20, popularityHalfLife: nil), lifted = try SearchQuery(text: text, limit: 20)
            let first = number.isMultiple(of: 2) ? plain : lifted, second = number.isMultiple(of: 2) ? lifted : plain
            let (firstResults, firstTime) = try await timed(first), (secondResults, secondTime) = try await timed(second)
            off.append(number.isMultiple(of: 2) ? firstTime : secondTime)
            on.append(number.isMultiple(of: 2) ? secondTime : firstTime)
            if firstResults.hits.map(\.uniqueIdentifier) != secondResults.hits.map(\.uniqueIdentifier) { reordered += 1 }
        }
        print("\(label)search, 1–3 prefixes (\(queries.count) queries, top 20, no result cache), alternated: popularity off \(Benchmark.percentiles(off)); on \(Benchmark.percentiles(on)); \(reordered) pages ordered differently")
    }
}
