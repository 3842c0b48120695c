import Foundation
import Indexing

/// The search postings (``WordPostings``) against the FTS5 scans they replace: `scheduler-bench --bitmaps DATABASE`
/// reads an existing SQLite index's items, keeps the postings of their best fields and of their names, then takes the first candidates of never-repeated queries from the bitmaps and from the index's FTS5
/// tables (`sqlite3` and its timer: the same scans a search runs, without the join), side by side: time per query (CPU
/// for `sqlite3`), memory, build time, and whether both found the same rows. `--all-fields` adds the all-fields table.
enum BitmapCandidatesBenchmark {
    /// The distinct queries of the `wrk` load that repeats none (``HTTPBenchmark``).
    static let queryCount = 300
    /// The rows a scan takes: ``CandidateRanking/candidatesPerScope`` and one more, as a search's first scan.
    static let limit = CandidateRanking.candidatesPerScope + 1

    /// The bitmaps of one FTS5 table's fields.
    struct Scope {
        var table: String
        /// The fields it indexes, as positions among ``fields`` (the columns read).
        var fields: [Int]
        var postings = WordPostings()

        /// The first ``limit`` rows holding every word of `query` as a prefix.
        func firstMatches(_ query: String) -> [Int64] {
            postings.firstMembers(matching: SearchTerms(query).match!, limit: BitmapCandidatesBenchmark.limit)
        }
    }

    /// The columns read, in ``Scope/fields`` order.
    static let fields = ["coalesce(title, '')", "coalesce(displayName, '')", "keywords", "authorNames", "coalesce(contentDescription, '')"]

    /// `allFields`: the all-fields table's bitmaps too (several times the memory and the build time).
    static func run(database: String, allFields: Bool, work: String) throws {
        let sqlite3 = "/usr/bin/sqlite3"
        let queries = Benchmark.distinctTypedQueries(queryCount, seed: 777)
        // The best fields (title, display name, keywords) and the names (title, display name), as the two tables index them.
        var scopes = [Scope(table: "item_fts_best", fields: [0, 1, 2, 3]), Scope(table: "item_fts_names", fields: [0, 1])]
        if allFields { scopes.append(Scope(table: "item_fts", fields: [0, 1, 2, 3, 4])) }
        let dump = "\(work)/bitmaps-rows.txt"
        let readStart = ContinuousClock.now
        let rows = try ChildProcess.measure(
            [sqlite3, "-readonly", "-cmd", ".mode ascii", "-cmd", ".output \(dump)", database,
             "SELECT id, \(fields.joined(separator: ", ")) FROM item ORDER BY id"]
        )
        guard rows.status == 0 else { throw BenchmarkError("sqlite3 could not read the items of \(database)") }
        let text = try String(contentsOfFile: dump, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: dump)
        print(String(format: "read the items' fields with sqlite3 in %.1f s", (ContinuousClock.now - readStart).seconds))

        let buildStart = ContinuousClock.now
        var items = 0
        for record in text.split(separator: "\u{1E}") {
            let columns = record.split(separator: "\u{1F}", omittingEmptySubsequences: false)
            guard columns.count == fields.count + 1, let id = Int64(columns[0]) else { continue }
            for index in scopes.indices { scopes[index].postings.add(id, wordsOf: scopes[index].fields.map { String(columns[$0 + 1]) }) }
            items += 1
        }
        for index in scopes.indices { scopes[index].postings.sortNewWords() }
        print(String(format: "built the bitmaps of %d items, prefixes of 1–%d letters, in %.1f s", items, WordPostings.prefixLetters, (ContinuousClock.now - buildStart).seconds))

        for scope in scopes {
            // FTS5: `sqlite3` with its timer, 3 runs; a query's time is its least CPU time (user + system) of the 3.
            let script = "\(work)/bitmaps-\(scope.table).sql"
            let statements = queries.map { query in
                let match = SearchTerms(query).matchExpression!.replacingOccurrences(of: "'", with: "''")
                return "SELECT rowid FROM \(scope.table) WHERE \(scope.table) MATCH '\(match)' ORDER BY rowid LIMIT \(limit);"
            }
            try (".timer on\n" + statements.joined(separator: "\n")).write(toFile: script, atomically: true, encoding: .utf8)
            var ftsTimes = Array(repeating: Double.infinity, count: queries.count)
            var ftsRows: [[Int64]] = []
            for _ in 0..<3 {
                let output = try ChildProcess.output([sqlite3, "-readonly", "-cmd", ".read \(script)", database]) ?? ""
                ftsRows = []
                var rows: [Int64] = []
                for line in output.split(separator: "\n") {
                    if let id = Int64(line) {
                        rows.append(id)
                    } else if line.hasPrefix("Run Time:") {
                        // "Run Time: real 0.003 user 0.002784 sys 0.000000"
                        let parts = line.split(separator: " ")
                        let cpu = (Double(parts[5]) ?? .infinity) + (Double(parts[7]) ?? .infinity)
                        ftsTimes[ftsRows.count] = min(ftsTimes[ftsRows.count], cpu)
                        ftsRows.append(rows)
                        rows = []
                    }
                }
                guard ftsRows.count == queries.count else { throw BenchmarkError("sqlite3 answered \(ftsRows.count) of \(queries.count) queries") }
            }

            // Bitmaps: 3 rounds; a query's time is its least of the 3, as for FTS5.
            var bitmapTimes = Array(repeating: Double.infinity, count: queries.count)
            var same = 0
            for round in 0..<3 {
                for (index, query) in queries.enumerated() {
                    let start = ContinuousClock.now
                    let rows = scope.firstMatches(query)
                    bitmapTimes[index] = min(bitmapTimes[index], (ContinuousClock.now - start).seconds)
                    if round == 0, ftsRows[index] == rows { same += 1 }
                }
            }
            func figures(_ times: [Double]) -> String {
                let sorted = times.sorted()
                return String(format: "mean %.3f, p50 %.3f, p99 %.3f, max %.3f ms", sorted.reduce(0, +) * 1000 / Double(sorted.count),
                    sorted[sorted.count / 2] * 1000, sorted[sorted.count * 99 / 100] * 1000, sorted.last! * 1000)
            }
            let slowest = ftsTimes.indices.max { ftsTimes[$0] < ftsTimes[$1] }!
            print("\(scope.table), a query's first \(limit) rows: FTS5 \(figures(ftsTimes)); bitmaps \(figures(bitmapTimes)); "
                + String(format: "%.0f MB of bitmaps; the same rows for %d of %d queries; slowest for FTS5: '%@', %.1f ms against %.3f ms",
                    Double(scope.postings.bytes) / 1e6, same, queries.count, queries[slowest], ftsTimes[slowest] * 1000, bitmapTimes[slowest] * 1000))
            try? FileManager.default.removeItem(atPath: script)
        }
    }
}
