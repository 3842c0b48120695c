import CSystemCalls
import Foundation
import Indexing
import Logging
import PluginAPI
import SQLiteStore

/// Measures the index at several sizes and prints the figures recorded in BENCHMARKS.md.
///
/// Usage: scheduler-bench [N …] [--work DIR] [--scheduler PATH] [--postgres URL]
///        scheduler-bench --goals N [--postgres URL] [--work DIR]  (every figure issue 25 sets a goal for, as one table:
///                                               see ``GoalsBenchmark``)
///        scheduler-bench --after-import N --postgres URL [--work DIR] (a PostgreSQL replica's search right after
///                                               another process imports N items: the last part of --goals)
///        scheduler-bench --pass N [--work DIR]  (whole reconcile passes through `scheduler run-once`)
///        scheduler-bench --search DATABASE|URL  (search latency only, on an existing SQLite index or PostgreSQL store;
///                                               BENCH_SLOWEST=1 lists the slowest)
///        scheduler-bench --postings DATABASE (searches with the search postings against scans of every row, alternated, same hits checked)
///        scheduler-bench --purge DATABASE       (purge its largest synthetic domain, then reclaim, on an existing index)
///        scheduler-bench --http DATABASE [--row-cache MB,…] (search over HTTP against `scheduler run` on an existing index;
///                                        wrk if installed, for 20 s or BENCH_LOAD_SECONDS; with several row cache sizes,
///                                        a service with each, alternated)
///        scheduler-bench --paired DATABASE [--row-cache A,B] [--against PATH] [--against-database PATH] [--writer]
///                                        (two services at once on copies of an index, or B on another index of the
///                                        same items, CPU a never-repeated search, A over B, with items
///                                        rewritten in both meanwhile with --writer: ``PairedBenchmark``)
///        scheduler-bench --restart DATABASE [--once] (search right after a restart, postings saved and not: ``RestartBenchmark``)
///        scheduler-bench --relevance FOLDER … (titles of real sites' posts: see ``RelevanceBenchmark``)
///        scheduler-bench --relevance-docs NAME=DIR[,site=FILE][,flavor=F] … (documentation sites: ``DocsRelevanceBenchmark``)
///        scheduler-bench --audience DATABASE    (searches as a tenant token's user against anonymous ones: ``AudienceBenchmark``)
///        scheduler-bench --decode N [--work DIR] (reading N item lines: the line decoder against JSONDecoder)
///        scheduler-bench --generate N [--work DIR] (writes the N synthetic items every measure uses, as NDJSON and CSV)
///        scheduler-bench --ticks [N …] [--postgres URL] (a tick with nothing due over N units, each --ticks one N;
///                                               1,000, 10,000 and 100,000 by default: see ``TickBenchmark``)
///        scheduler-bench --fleet URL [--replicas N] [--units N] [--kills N] [--concurrency N] [--cut-connections N]
///                                [--skew SECONDS] [--limit SECONDS] [--json]
///                                               (replicas on one PostgreSQL under chaos: see ``FleetBenchmark``)
/// Defaults: N = 100000 1000000, DIR = a temporary folder, PATH = the scheduler beside this program.
@main
struct Benchmark {
    static func main() async {
        // Each figure reaches the file or pipe as soon as it is printed: a run stopped or crashed keeps what it measured.
        csystem_line_buffer_standard_output()
        BenchChildren.stopWithTheBench()
        var options = BenchmarkOptions()
        options.parse(CommandLine.arguments.dropFirst())
        do {
            try await run(options)
            BenchChildren.exitAfterStopping(0)
        } catch {
            // Said, and exit status 1: a thrown error is not a crash (Swift traps on an error thrown out of `main`).
            BenchChildren.exitAfterStopping(1, saying: "\(error)")
        }
    }

    /// The measure `options` names.
    private static func run(_ options: BenchmarkOptions) async throws {
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        if let single = options.single { return try await single.run(options) }
        if let fleetServer = options.fleetServer {
            let report = try await FleetBenchmark.run(options.fleet, server: fleetServer, work: options.work, scheduler: options.scheduler)
            return try FleetBenchmark.print(report, json: options.json)
        }
        print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, "
            + "\(ProcessInfo.processInfo.physicalMemory / 1_073_741_824) GiB; \(Date())")
        try await runSizes(options)
    }

    /// The measures that take sizes: the goals, a replica after an import, ticks, passes, or the import and search
    /// figures at each size (100k and 1M unless given).
    private static func runSizes(_ options: BenchmarkOptions) async throws {
        let (work, scheduler, postgres) = (options.work, options.scheduler, options.postgres)
        if let goals = options.goals {
            return try await GoalsBenchmark.run(n: goals, postgres: postgres, work: work, scheduler: scheduler)
        }
        if let afterImport = options.afterImport {
            guard let postgres else { throw BenchmarkError("--after-import measures a PostgreSQL replica: give --postgres URL") }
            let ndjson = "\(work)/items-\(afterImport).ndjson"
            try Benchmark.generate(n: afterImport, ndjson: ndjson, csv: "\(work)/items-\(afterImport).csv")
            _ = try await PostgresBenchmark.serviceAfterImport(n: afterImport, ndjson: ndjson, work: work, scheduler: scheduler, server: postgres)
            return
        }
        if let tickUnits = options.tickUnits {
            return try await TickBenchmark.run(units: tickUnits, postgres: postgres, work: work)
        }
        guard options.passSizes.isEmpty else {
            return try options.passSizes.forEach { try PassBenchmark.run(n: $0, work: work, scheduler: scheduler) }
        }
        for n in options.sizes.isEmpty ? [100_000, 1_000_000] : options.sizes {
            try await run(n: n, work: work, scheduler: scheduler)
            if let postgres {
                try await PostgresBenchmark.run(n: n, ndjson: "\(work)/items-\(n).ndjson", work: work, scheduler: scheduler, server: postgres)
            }
        }
    }

    static func run(n: Int, work: String, scheduler: String) async throws {
        print("\n== \(n) items")
        let ndjson = "\(work)/items-\(n).ndjson", csv = "\(work)/items-\(n).csv"
        let ours = "\(work)/ours-\(n).sqlite", raw = "\(work)/raw-\(n).sqlite", minimal = "\(work)/minimal-\(n).sqlite"
        for file in [ours, raw, minimal] { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        try generate(n: n, ndjson: ndjson, csv: csv)

        let imported = try importIndex(ndjson: ndjson, database: ours, scheduler: scheduler)
        print(String(format: "scheduler index import: %.1f s, %.0f items/s, peak memory %.0f MB",
            imported.seconds, Double(n) / imported.seconds, Double(imported.peakMemoryBytes) / 1e6))

        // The raw baseline: the same schema (created by the scheduler), loaded by sqlite3 from CSV in one transaction:
        // the rows alone, as the import writes them (the words are the search postings', which it leaves to the service).
        _ = try ChildProcess.measure([scheduler, "index", "stats", "--database", raw])
        let script = "\(work)/load.sql"
        try """
            PRAGMA journal_mode=WAL;
            CREATE TEMP TABLE stage(uniqueIdentifier, domainIdentifier, title, contentDescription, keywords);
            .mode csv
            .import \(csv) stage
            BEGIN;
            INSERT INTO item (uniqueIdentifier, domainIdentifier, contentType, title, contentDescription, keywords, expirationDate, indexedAt, commitNumber)
              SELECT uniqueIdentifier, domainIdentifier, 'public.item', title, contentDescription, keywords, 4102444800, 0, 1 FROM stage;
            COMMIT;
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let baseline = try ChildProcess.measure(["sqlite3", raw], stdinPath: script)
        guard baseline.status == 0 else { throw BenchmarkError("sqlite3 exited \(baseline.status)") }
        print(String(format: "raw sqlite3 CSV load:    %.1f s, %.0f items/s (ours is %.2f× raw)",
            baseline.seconds, Double(n) / baseline.seconds, baseline.seconds / imported.seconds))

        let (least, leastSize) = try minimalLoad(csv: csv, database: minimal, work: work)
        print(String(format: "minimal raw load (one table + one FTS5 table, prefix='2 3'): %.1f s, %.0f items/s (ours is %.2f× it), %.0f MB",
            least.seconds, Double(n) / least.seconds, least.seconds / imported.seconds, leastSize / 1e6))

        let index = try await searchedIndex(ours)
        print(String(format: "database size: %.0f MB (%.2f× the minimal raw load)", Double(index.storageSize()) / 1e6,
            Double(index.storageSize()) / max(leastSize, 1)))
        try await measureSearch(index)

        try await PurgeBenchmark.measure(index)
    }

    /// The SQLite index at `path`, without a result cache, its search postings held as the service holds them: read from
    /// the file saved beside it, else built (without them, every search would read every row).
    static func searchedIndex(_ path: String) async throws -> SQLiteSearchIndex {
        let index = try SQLiteSearchIndex(path: path, searchCacheEntries: 0, logger: Logger(label: "bench"))
        try await index.readSavedSearchStructures()
        if index.searchStructureRows == 0 { try await index.buildSearchPostings() }
        return index
    }

    /// `scheduler index import` of `ndjson` into the SQLite index at `database` (a new one: the caller removed any).
    /// The rows alone, as the raw loads it is compared with: a build whose import then saves the search postings is
    /// told not to (the service started after builds them, and says how long that took).
    static func importIndex(ndjson: String, database: String, scheduler: String) throws -> ChildProcess.Measurement {
        let help = try ChildProcess.output([scheduler, "index", "import", "--help"]) ?? ""
        let rowsAlone = help.contains("--no-search-postings") ? ["--no-search-postings"] : []
        let imported = try ChildProcess.measure([scheduler, "index", "import", ndjson, "--database", database] + rowsAlone)
        guard imported.status == 0 else { throw BenchmarkError("scheduler index import exited \(imported.status)") }
        return imported
    }

    /// The least work that makes the text prefix-searchable (issue 16's yardstick): `csv` loaded by `sqlite3` into one
    /// plain table and one FTS5 table with 2- and 3-letter prefix indexes, in one transaction, into a new file at
    /// `database`; with the file's size in bytes.
    static func minimalLoad(csv: String, database: String, work: String) throws -> (ChildProcess.Measurement, bytes: Double) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        let minimalScript = "\(work)/load-minimal.sql"
        try """
            PRAGMA journal_mode=WAL;
            CREATE TABLE item(uniqueIdentifier TEXT, domainIdentifier TEXT, title TEXT, contentDescription TEXT, keywords TEXT);
            CREATE VIRTUAL TABLE item_fts USING fts5(title, contentDescription, keywords, content='item',
              tokenize='unicode61 remove_diacritics 2', prefix='2 3');
            CREATE TEMP TABLE stage(uniqueIdentifier, domainIdentifier, title, contentDescription, keywords);
            .mode csv
            .import \(csv) stage
            BEGIN;
            INSERT INTO item SELECT * FROM stage;
            INSERT INTO item_fts(rowid, title, contentDescription, keywords) SELECT rowid, title, contentDescription, keywords FROM item;
            COMMIT;
            PRAGMA wal_checkpoint(TRUNCATE);
            """.write(toFile: minimalScript, atomically: true, encoding: .utf8)
        let least = try ChildProcess.measure(["sqlite3", database], stdinPath: minimalScript)
        guard least.status == 0 else { throw BenchmarkError("sqlite3 exited \(least.status) on the minimal load") }
        return (least, megabytes(database) * 1e6)
    }

    /// The size of the file at `path` in megabytes (10^6 bytes); 0 when there is none.
    static func megabytes(_ path: String) -> Double {
        Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1e6
    }

    /// 1–3 word prefix queries of 2–6 letters, as a user types them: the same 400 queries twice, first on
    /// whatever the caches hold (after an import, pages the import did not leave there), then again.
    static func measureSearch(_ index: any SearchIndex, label: String = "") async throws {
        /// How long each of `texts` took to search, in order.
        func latencies(_ texts: [String]) async throws -> [Duration] {
            var latencies: [Duration] = []
            for text in texts {
                let start = ContinuousClock.now
                _ = try await index.search(SearchQuery(text: text, limit: 20))
                latencies.append(ContinuousClock.now - start)
            }
            return latencies
        }
        /// Prints the percentiles of searching `texts` (and the slowest queries when BENCH_SLOWEST is set).
        func measure(_ name: String, _ texts: [String]) async throws {
            let measured = try await latencies(texts)
            print("\(label)search, \(name) (\(texts.count) queries, top 20, no result cache): \(percentiles(measured))")
            if ProcessInfo.processInfo.environment["BENCH_SLOWEST"] != nil {
                for (text, latency) in zip(texts, measured).sorted(by: { $0.1 > $1.1 }).prefix(12) { print("  \(latency) \(text)") }
            }
        }
        let queries = typedQueries(400)
        try await measure("first round, 1–3 prefixes", queries)
        try await measure("second round, 1–3 prefixes", queries)
        try await measureFacetsAndHighlights(index, queries: typedQueries(400, seed: 7), label: label)
        try await measureTypos(index, label: label)
        // Query sets that are not the typed ones above, once each (warm).
        for (name, texts) in otherQuerySets() { try await measure(name, texts) }
    }

    /// What facets (`domain,type`) add to a search, side by side with the same search without them, alternated query
    /// by query (which goes first too) so the machine's drift and the page cache favour neither; and what computing
    /// a page's highlights and snippets costs (part of every search).
    static func measureFacetsAndHighlights(_ index: any SearchIndex, queries: [String], label: String) async throws {
        var plain: [Duration] = [], exact: [Duration] = [], capped: [Duration] = [], plainOfExact: [Duration] = [], highlighting: [Duration] = []
        for (number, text) in queries.enumerated() {
            func timed(_ query: SearchQuery) async throws -> (SearchResults, Duration) {
                let start = ContinuousClock.now
                let results = try await index.search(query)
                return (results, ContinuousClock.now - start)
            }
            let withoutFacets = try SearchQuery(text: text, limit: 20), withFacets = try SearchQuery(text: text, limit: 20, facets: [.domain, .type])
            let (results, plainTime): (SearchResults, Duration)
            let (faceted, facetedTime): (SearchResults, Duration)
            if number.isMultiple(of: 2) {
                (results, plainTime) = try await timed(withoutFacets)
                (faceted, facetedTime) = try await timed(withFacets)
            } else {
                (faceted, facetedTime) = try await timed(withFacets)
                (results, plainTime) = try await timed(withoutFacets)
            }
            plain.append(plainTime)
            if faceted.facetsAreExact == true {
                exact.append(facetedTime)
                plainOfExact.append(plainTime)
            } else {
                capped.append(facetedTime)
            }
            let start = ContinuousClock.now
            _ = results.highlighted(for: SearchTerms(text))
            highlighting.append(ContinuousClock.now - start)
        }
        print("\(label)search, other typed queries (\(queries.count), top 20, no result cache), alternated: without facets \(percentiles(plain))")
        if !exact.isEmpty {
            print("\(label)  the \(exact.count) matching at most \(SearchFacet.countedMatches): without facets \(percentiles(plainOfExact)); with facets=domain,type \(percentiles(exact))")
        }
        if !capped.isEmpty { print("\(label)  the \(capped.count) matching more (facets count the first \(SearchFacet.countedMatches)): with facets \(percentiles(capped))") }
        print("\(label)  highlights and snippets of a page of 20 (included in every search above): \(percentiles(highlighting))")
    }

    /// Queries of 1–2 words where one word of 5 letters or more has two neighbours swapped (past its first letter),
    /// alternated query by query with the same words typed right: what finding the corrections costs, never-repeated
    /// queries, no result cache. Also how many typo'd queries still find an item holding the word meant.
    static func measureTypos(_ index: any SearchIndex, label: String) async throws {
        let vocabulary = SyntheticItems(seed: 7)
        var random = SplitMix64(seed: 777)
        var right: [Duration] = [], typo: [Duration] = [], found = 0, queries = 0
        while queries < 300 {
            let word = Array(vocabulary.word(rank: Int(random.next() % 20_000)))
            guard word.count >= 5 else { continue }
            let swap = 1 + Int(random.next() % UInt64(word.count - 2))
            var misspelt = word
            misspelt.swapAt(swap, swap + 1)
            guard misspelt != word else { continue }
            let other = random.next() % 2 == 0 ? "" : " " + String(vocabulary.word(rank: Int(random.next() % 200)).prefix(3))
            let typed = try SearchQuery(text: String(word) + other, limit: 20), mistyped = try SearchQuery(text: String(misspelt) + other, limit: 20)
            func timed(_ query: SearchQuery) async throws -> (SearchResults, Duration) {
                let start = ContinuousClock.now
                let results = try await index.search(query)
                return (results, ContinuousClock.now - start)
            }
            let first = queries.isMultiple(of: 2) ? typed : mistyped, second = queries.isMultiple(of: 2) ? mistyped : typed
            let (firstResults, firstTime) = try await timed(first), (secondResults, secondTime) = try await timed(second)
            let (corrected, rightTime, typoTime) = queries.isMultiple(of: 2) ? (secondResults, firstTime, secondTime) : (firstResults, secondTime, firstTime)
            right.append(rightTime)
            typo.append(typoTime)
            if corrected.hits.contains(where: { hit in
                [hit.title, hit.contentDescription].compactMap { $0 }.joined(separator: " ").lowercased().contains(String(word))
            }) { found += 1 }
            queries += 1
        }
        print("\(label)search, one typo in a word of 5+ letters (\(queries) queries, 1–2 words, top 20, no result cache), alternated: typed right \(percentiles(right)); with the typo \(percentiles(typo)); the word meant found for \(found * 100 / queries) %")
    }

    /// Other shapes of queries: single letters, the most frequent whole words (each in a large share of the
    /// items), a rare whole word beside common short prefixes, a long uniform-vocabulary prefix, and nothing found.
    static func otherQuerySets() -> [(String, [String])] {
        let vocabulary = SyntheticItems(seed: 7)
        var random = SplitMix64(seed: 4242)
        func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return [
            ("1-letter prefixes, 1–3 words", (0..<200).map { _ in (0...pick(3)).map { _ in String(letters[pick(26)]) }.joined(separator: " ") }),
            ("the 20 most frequent whole words, 1–2", (0..<200).map { _ in (0...pick(2)).map { _ in vocabulary.word(rank: pick(20)) }.joined(separator: " ") }),
            ("a rare whole word and 1–2 two-letter prefixes", (0..<200).map { _ in
                ([vocabulary.word(rank: 15_000 + pick(5_000))] + (0...pick(2)).map { _ in String(vocabulary.word(rank: pick(200)).prefix(2)) })
                    .joined(separator: " ")
            }),
            ("uniform words cut to 4–8 letters, 1–3", (0..<200).map { _ in
                (0...pick(3)).map { _ in String(vocabulary.word(rank: pick(20_000)).prefix(4 + pick(5))) }.joined(separator: " ")
            }),
            ("words found nowhere", (0..<200).map { _ in "xq\(letters[pick(26)])\(pick(1000)) wz" }),
        ]
    }

    /// `count` queries of 1–3 words of the synthetic vocabulary cut to 2–6 letters, as a user types them; another
    /// `seed` gives other queries.
    static func typedQueries(_ count: Int, seed: UInt64 = 99) -> [String] {
        var words = SyntheticItems(seed: 7)
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            (0...Int(random.next() % 3)).map { _ in
                String(words.word().prefix(2 + Int(random.next() % 5)))
            }.joined(separator: " ")
        }
    }

    /// Up to `count` distinct queries shaped as ``typedQueries(_:seed:)`` (short ones repeat there: each is kept once),
    /// in the order first drawn.
    static func distinctTypedQueries(_ count: Int, seed: UInt64) -> [String] {
        var seen: Set<String> = []
        return typedQueries(count * 2, seed: seed).filter { seen.insert($0).inserted }.prefix(count).map { $0 }
    }

    /// What a search box sends while `queries` are typed: every keystroke's text, `j`, `je`, `jek`, … `jekyll re`,
    /// in order (a space alone, or a text already sent, is not sent again: a box sends on change).
    static func keystrokes(of queries: [String]) -> [String] {
        var sent: Set<String> = []
        return queries.flatMap { query in
            query.indices.map { String(query[...$0]) }.filter { $0.last != " " && sent.insert($0).inserted }
        }
    }

    /// `p50 …, p99 …, max …` of `latencies`, in milliseconds.
    static func percentiles(_ latencies: [Duration]) -> String {
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> String { String(format: "%.1f ms", milliseconds(at: p, ofSorted: sorted)) }
        return "p50 \(percentile(0.5)), p99 \(percentile(0.99)), max \(percentile(1))"
    }

    /// The latency at `p` (0.5 for the median, 1 for the slowest) of `sorted` latencies, in milliseconds.
    static func milliseconds(at p: Double, ofSorted sorted: [Duration]) -> Double {
        sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))].seconds * 1000
    }

    static func generate(n: Int, ndjson: String, csv: String) throws {
        guard !FileManager.default.fileExists(atPath: ndjson) || !FileManager.default.fileExists(atPath: csv) else { return }
        _ = FileManager.default.createFile(atPath: ndjson, contents: nil)
        _ = FileManager.default.createFile(atPath: csv, contents: nil)
        let jsonOut = try FileHandle(forWritingTo: URL(fileURLWithPath: ndjson))
        let csvOut = try FileHandle(forWritingTo: URL(fileURLWithPath: csv))
        var items = SyntheticItems(seed: 1)
        let encoder = JSONEncoder()
        var jsonChunk = Data(), csvChunk = ""
        for i in 0..<n {
            let item = items.item(i)
            let searchable = SearchableItem(
                uniqueIdentifier: item.id, domainIdentifier: item.domain, title: item.title,
                contentDescription: item.description, keywords: item.keywords,
                expirationDate: Date(timeIntervalSince1970: 4_102_444_800)
            )
            jsonChunk += try encoder.encode(searchable) + Data("\n".utf8)
            let keywords = String(decoding: try encoder.encode(item.keywords), as: UTF8.self)
            csvChunk += [item.id, item.domain, item.title, item.description, keywords]
                .map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",") + "\n"
            if i % 10_000 == 9_999 || i == n - 1 {
                jsonOut.write(jsonChunk)
                csvOut.write(Data(csvChunk.utf8))
                jsonChunk.removeAll()
                csvChunk = ""
            }
        }
        try jsonOut.close()
        try csvOut.close()
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
