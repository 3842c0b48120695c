import Foundation
import Indexing
import Logging
import SQLiteStore

/// What searching as a tenant token's user costs against searching anonymously, on an existing SQLite index with
/// its postings built, as the service searches: `scheduler-bench --audience DATABASE`, or `--audience N`, which first
/// generates N of the bench's items and imports them with `scheduler index import` (in `--work`). The same never-repeated and
/// typed queries, alternated query by query (which goes first too), so the machine's drift favours neither: once as
/// anyone (`search.access: public`), once with a token's audience (its key's domain and three groups). Every query
/// must give both the same hits (the bench's items carry no `access`, and the domain holds them all). The token's
/// signature check is not part of it (a few microseconds, once a request).
enum AudienceBenchmark {
    static func run(target: String, work: String, scheduler: String) async throws {
        guard let n = Int(target) else { return try await run(database: target) }
        let ndjson = "\(work)/items-\(n).ndjson", database = "\(work)/audience-\(n).sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        try Benchmark.generate(n: n, ndjson: ndjson, csv: "\(work)/items-\(n).csv")
        let imported = try Benchmark.importIndex(ndjson: ndjson, database: database, scheduler: scheduler)
        print(String(format: "imported %d items in %.1f s", n, imported.seconds))
        try await run(database: database)
    }

    static func run(database: String) async throws {
        let quiet = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        let index = try SQLiteSearchIndex(path: database, searchCacheEntries: 0, postings: .all, logger: quiet)
        let start = ContinuousClock.now
        try await index.buildSearchPostings()
        print(String(format: "built the postings in %.1f s", (ContinuousClock.now - start).seconds))
        let token = SearchAudience(domains: ["com.bench"], groups: ["staff", "support", "beta"])
        let sets: [(String, [String])] = [
            ("never-repeated set", Array(Benchmark.distinctTypedQueries(2_000, seed: 4242))),
            ("typed queries", Benchmark.typedQueries(400, seed: 4243)),
        ]
        for (name, texts) in sets {
            var anonymous: [Duration] = [], withToken: [Duration] = []
            var differing = 0
            for (number, text) in texts.enumerated() {
                func timed(_ audience: SearchAudience) async throws -> (SearchResults, Duration) {
                    var query = try SearchQuery(text: text, limit: 20)
                    query.audience = audience
                    let start = ContinuousClock.now
                    let results = try await index.search(query)
                    return (results, ContinuousClock.now - start)
                }
                let (plain, plainTime): (SearchResults, Duration), (scoped, scopedTime): (SearchResults, Duration)
                if number % 2 == 0 {
                    (plain, plainTime) = try await timed(.anyone)
                    (scoped, scopedTime) = try await timed(token)
                } else {
                    (scoped, scopedTime) = try await timed(token)
                    (plain, plainTime) = try await timed(.anyone)
                }
                anonymous.append(plainTime)
                withToken.append(scopedTime)
                if plain.hits.map(\.uniqueIdentifier) != scoped.hits.map(\.uniqueIdentifier) || plain.total != scoped.total { differing += 1 }
            }
            let ratio = withToken.reduce(.zero, +).seconds / anonymous.reduce(.zero, +).seconds
            print("\(name), \(texts.count) queries, top 20, no result cache, alternated:")
            print("  anonymous:                  \(Benchmark.percentiles(anonymous))")
            print("  tenant token, 3 groups:     \(Benchmark.percentiles(withToken))")
            print(String(format: "  total time, token / anonymous: %.3f; the same hits for %d of %d queries", ratio, texts.count - differing, texts.count))
        }
    }
}
