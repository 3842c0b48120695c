import Foundation
import Indexing
import Logging
import SQLiteStore

/// The search postings against the scans of every row they replace (what a search does without them), on an existing SQLite index: `scheduler-bench --postings
/// DATABASE [--all-fields]` opens it twice without result caches, builds one's postings (time and memory), then searches new queries
/// on both, alternated query by query (which goes first too), so the machine's drift favours neither: 400 typed
/// queries, every keystroke of 50 more, 1,000 of the never-repeated set, and 300 typed queries each with facets and
/// newest first (which walk the matches). Every query must give both the same hits, total and facets; the slowest of
/// each side are printed. `--all-fields`: postings of every field (`search.postings: all`, the all-fields scan reads
/// them too), else of the best fields.
enum PostingsBenchmark {
    static func run(database: String, allFields: Bool) async throws {
        let quiet = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        let keeping = try SQLiteSearchIndex(path: database, searchCacheEntries: 0, postings: allFields ? .all : .best, logger: quiet)
        let plain = try SQLiteSearchIndex(path: database, searchCacheEntries: 0, logger: quiet)
        let start = ContinuousClock.now
        try await keeping.buildSearchPostings()
        let summary = keeping.postings.summary!
        print(String(format: "built the postings of %d rows in %.1f s: %d words, about %d MB", summary.rows, (ContinuousClock.now - start).seconds,
            summary.words, summary.bytes / 1_000_000))
        let sets: [(String, [String], facets: [SearchFacet], sort: SearchSort)] = [
            ("typed queries", Benchmark.typedQueries(400, seed: 2026), [], .relevance),
            ("every keystroke of 50 queries", Benchmark.keystrokes(of: Benchmark.typedQueries(50, seed: 2027)), [], .relevance),
            ("never-repeated set", Array(Benchmark.distinctTypedQueries(1_000, seed: 777)), [], .relevance),
            ("typed queries with facets=domain,type", Benchmark.typedQueries(300, seed: 2028), [.domain, .type], .relevance),
            ("typed queries newest first", Benchmark.typedQueries(300, seed: 2029), [], .newest),
        ]
        for (name, texts, facets, sort) in sets {
            var withPostings: [Duration] = [], fullText: [Duration] = []
            var differing: [String] = []
            let answeredBefore = keeping.postings.batchesAnswered
            for (number, text) in texts.enumerated() {
                let query = try SearchQuery(text: text, limit: 20, facets: facets, sort: sort)
                func timed(_ index: SQLiteSearchIndex) async throws -> (SearchResults, Duration) {
                    let start = ContinuousClock.now
                    let results = try await index.search(query)
                    return (results, ContinuousClock.now - start)
                }
                let (kept, keptTime): (SearchResults, Duration), (scanned, scannedTime): (SearchResults, Duration)
                if number % 2 == 0 {
                    (kept, keptTime) = try await timed(keeping)
                    (scanned, scannedTime) = try await timed(plain)
                } else {
                    (scanned, scannedTime) = try await timed(plain)
                    (kept, keptTime) = try await timed(keeping)
                }
                withPostings.append(keptTime)
                fullText.append(scannedTime)
                if kept.hits.map(\.uniqueIdentifier) != scanned.hits.map(\.uniqueIdentifier) || kept.total != scanned.total || kept.facets != scanned.facets {
                    differing.append(text)
                }
            }
            print("\(name), \(texts.count) queries, top 20, no result cache:")
            print("  rows alone:    \(Benchmark.percentiles(fullText))")
            print("  with postings: \(Benchmark.percentiles(withPostings)) (\(keeping.postings.batchesAnswered - answeredBefore) scan batches from the postings)")
            print("  the same hits and total for \(texts.count - differing.count) of \(texts.count) queries" + (differing.isEmpty ? "" : "; differing: \(differing.prefix(5))"))
            for (side, times) in [("rows alone", fullText), ("with postings", withPostings)] {
                let slowest = zip(texts, times).sorted { $0.1 > $1.1 }.prefix(5).map { "'\($0.0)' \(String(format: "%.1f ms", $0.1.seconds * 1000))" }
                print("  slowest, \(side): \(slowest.joined(separator: ", "))")
            }
        }
    }
}
