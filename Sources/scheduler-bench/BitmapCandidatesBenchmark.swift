import Foundation
import Indexing

/// Issue 25's candidate structure, measured before it is built: `scheduler-bench --bitmaps DATABASE` reads an
/// existing SQLite index's items, keeps a ``PostingBitmap`` per word and per prefix of 1–6 letters (or fewer with
/// `--prefix-letters N`) of their best fields and of their names (longer prefixes: the union of the words that start
/// with them), then takes the first
/// candidates of never-repeated queries from the bitmaps and from the index's FTS5 tables (`sqlite3`, the
/// same scans a search runs, without the join), side by side: time per query, memory, build time, and whether both
/// found the same rows.
enum BitmapCandidatesBenchmark {
    /// The distinct queries of the `wrk` load that repeats none (``HTTPBenchmark``).
    static let queryCount = 300
    /// The rows a scan takes: ``CandidateRanking/candidatesPerScope`` and one more, as a search's first scan.
    static let limit = CandidateRanking.candidatesPerScope + 1

    /// The bitmaps of one FTS5 table's fields.
    struct Scope {
        var table: String
        /// Prefixes up to this many letters have bitmaps of their own; longer ones are the union of their words'.
        var prefixLetters: Int
        var words: [String: PostingBitmap] = [:]
        var prefixes: [String: PostingBitmap] = [:]
        /// ``words``' keys in byte order, for the words that start with a longer prefix.
        var vocabulary: [String] = []

        /// Adds the row `id` (greater than every row before) holding `text`'s words.
        mutating func add(_ id: Int64, _ texts: [Substring]) {
            var seen: Set<String> = []
            var prefixesSeen: Set<String> = []
            for text in texts {
                TextFolding.forEachWord(in: text) { bytes in
                    let word = String(decoding: bytes, as: UTF8.self)
                    guard seen.insert(word).inserted else { return true }
                    words[word, default: PostingBitmap()].append(id)
                    let scalars = word.unicodeScalars
                    for length in 1...min(prefixLetters, scalars.count) {
                        let prefix = String(String.UnicodeScalarView(scalars.prefix(length)))
                        if prefixesSeen.insert(prefix).inserted { prefixes[prefix, default: PostingBitmap()].append(id) }
                    }
                    return true
                }
            }
        }

        /// The rows holding a word that starts with `prefix`.
        func matches(_ prefix: String) -> PostingBitmap {
            if prefix.unicodeScalars.count <= prefixLetters { return prefixes[prefix] ?? PostingBitmap() }
            var low = 0, high = vocabulary.count
            while low < high {
                let middle = (low + high) / 2
                if vocabulary[middle] < prefix { low = middle + 1 } else { high = middle }
            }
            var found: [PostingBitmap] = []
            while low < vocabulary.count, vocabulary[low].hasPrefix(prefix) {
                found.append(words[vocabulary[low]]!)
                low += 1
            }
            return found.count == 1 ? found[0] : PostingBitmap.union(found)
        }

        /// The first ``limit`` rows holding every word of `query` as a prefix.
        func firstMatches(_ query: String) -> [Int64] {
            PostingBitmap.firstMembers(ofIntersection: SearchTerms(query).words.map(matches), limit: BitmapCandidatesBenchmark.limit)
        }

        var bytes: Int {
            (words.values.reduce(0) { $0 + $1.bytes } + prefixes.values.reduce(0) { $0 + $1.bytes }) + vocabulary.reduce(0) { $0 + $1.utf8.count + 16 }
        }
    }

    static func run(database: String, prefixLetters: Int, work: String) throws {
        let sqlite3 = "/usr/bin/sqlite3"
        let queries = Benchmark.distinctTypedQueries(queryCount, seed: 777)
        // The best fields (title, display name, keywords) and the names (title, display name), as the two tables index them.
        var scopes = [Scope(table: "item_fts_best", prefixLetters: prefixLetters), Scope(table: "item_fts_names", prefixLetters: prefixLetters)]
        let dump = "\(work)/bitmaps-rows.txt"
        let readStart = ContinuousClock.now
        let rows = try ChildProcess.measure(
            [sqlite3, "-readonly", "-cmd", ".mode ascii", "-cmd", ".output \(dump)", database,
             "SELECT id, coalesce(title, ''), coalesce(displayName, ''), keywords FROM item ORDER BY id"]
        )
        guard rows.status == 0 else { throw BenchmarkError("sqlite3 could not read the items of \(database)") }
        let text = try String(contentsOfFile: dump, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: dump)
        print(String(format: "read the items' fields with sqlite3 in %.1f s", (ContinuousClock.now - readStart).seconds))

        let buildStart = ContinuousClock.now
        var items = 0
        for record in text.split(separator: "\u{1E}") {
            let fields = record.split(separator: "\u{1F}", omittingEmptySubsequences: false)
            guard fields.count == 4, let id = Int64(fields[0]) else { continue }
            scopes[0].add(id, [fields[1], fields[2], fields[3]])
            scopes[1].add(id, [fields[1], fields[2]])
            items += 1
        }
        for index in scopes.indices { scopes[index].vocabulary = scopes[index].words.keys.sorted() }
        print(String(format: "built the bitmaps of %d items, prefixes of 1–%d letters, in %.1f s", items, prefixLetters, (ContinuousClock.now - buildStart).seconds))

        for scope in scopes {
            // FTS5: one sqlite3 run over every query, its CPU time; then the rows it found, to compare.
            let script = "\(work)/bitmaps-\(scope.table).sql"
            let statements = queries.map { query in
                let match = SearchTerms(query).matchExpression!.replacingOccurrences(of: "'", with: "''")
                return "SELECT rowid FROM \(scope.table) WHERE \(scope.table) MATCH '\(match)' ORDER BY rowid LIMIT \(limit);\nSELECT '-';"
            }
            try statements.joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
            var ftsCPU: [Double] = []
            for _ in 0..<3 { ftsCPU.append(try ChildProcess.measure([sqlite3, "-readonly", database], stdinPath: script).cpuSeconds) }
            let found = try ChildProcess.output([sqlite3, "-readonly", "-cmd", ".read \(script)", database]) ?? ""
            let ftsRows = found.split(separator: "-\n", omittingEmptySubsequences: false).map { $0.split(separator: "\n").compactMap { Int64($0) } }

            var bitmapTimes: [Duration] = []
            var same = 0
            for round in 0..<3 {
                for (index, query) in queries.enumerated() {
                    let start = ContinuousClock.now
                    let rows = scope.firstMatches(query)
                    bitmapTimes.append(ContinuousClock.now - start)
                    if round == 0, index < ftsRows.count, ftsRows[index] == rows { same += 1 }
                }
            }
            let sorted = bitmapTimes.sorted()
            let bitmapTotal = bitmapTimes.reduce(Duration.zero, +).seconds / 3
            print(String(format: "%@: FTS5 %.2f ms a query (CPU of sqlite3 over %d queries, best of 3: %.3f s); bitmaps %.3f ms a query "
                + "(p50 %.3f, p99 %.3f ms), FTS5's time %.1f× theirs; %.0f MB of bitmaps; the same first %d rows for %d of %d queries",
                scope.table, ftsCPU.min()! * 1000 / Double(queries.count), queries.count, ftsCPU.min()!, bitmapTotal * 1000 / Double(queries.count),
                Benchmark.milliseconds(at: 0.5, ofSorted: sorted), Benchmark.milliseconds(at: 0.99, ofSorted: sorted),
                ftsCPU.min()! / max(bitmapTotal, 1e-9), Double(scope.bytes) / 1e6, limit, same, queries.count))
            try? FileManager.default.removeItem(atPath: script)
        }
    }
}
