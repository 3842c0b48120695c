import Foundation

/// Every figure issue 25 sets a goal for, measured in one run and printed as one table, SQLite and PostgreSQL side by
/// side: `scheduler-bench --goals N [--postgres URL]`.
///
/// 1. `scheduler index import` of N synthetic items into SQLite, then the minimal raw load of the same items.
/// 2. `scheduler run` on that index, measured over HTTP (``HTTPBenchmark``): one client sending queries new to every
///    cache, every keystroke of other new queries, then `wrk` over 300 rotating queries and over distinct ones.
/// 3. A first reconcile pass against `index import` of the same items, at N or 100,000 items, whichever is fewer.
/// 4. With `--postgres`: a replica serving a new PostgreSQL database while another process imports the N items, its
///    search copy following; one client's new queries from the moment the import ends (right after an import), then,
///    once the copy's postings hold every item, the same HTTP measurements.
enum GoalsBenchmark {
    static func run(n: Int, postgres: String?, work: String, scheduler: String) async throws {
        print("\n== the search goals, \(n) items")
        let ndjson = "\(work)/items-\(n).ndjson", csv = "\(work)/items-\(n).csv", ours = "\(work)/goals-\(n).sqlite"
        try Benchmark.generate(n: n, ndjson: ndjson, csv: csv)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: ours + suffix) }
        let imported = try Benchmark.importIndex(ndjson: ndjson, database: ours, scheduler: scheduler)
        let (minimal, minimalBytes) = try Benchmark.minimalLoad(csv: csv, database: "\(work)/minimal-\(n).sqlite", work: work)
        print(String(format: "scheduler index import: %.1f s, %.0f items/s; minimal raw load: %.1f s, %.0f items/s (ours is %.2f× it)",
            imported.seconds, Double(n) / imported.seconds, minimal.seconds, Double(n) / minimal.seconds, minimal.seconds / imported.seconds))

        let config = "\(work)/goals-config"
        try ServiceProcess.writeServingConfig(store: "{ sqlite: { path: \(URL(fileURLWithPath: ours).standardizedFileURL.path) } }", to: config)
        let service = try ServiceProcess(scheduler: scheduler, config: config)
        let sqlite: HTTPBenchmark.Figures
        let file: FileFigures
        do {
            print(String(format: "SQLite: the service built its search postings in %.1f s", try await service.waitForSearchPostings().seconds))
            _ = try await RestartBenchmark.waitForFile(ours + ".postings")
            sqlite = try await HTTPBenchmark.measure(base: service.base, work: work, label: "SQLite: ")
            print("SQLite: the service's memory: \(service.memory())")
            service.stop()
            file = FileFigures(database: Benchmark.megabytes(ours) + Benchmark.megabytes(ours + "-wal"),
                postings: Benchmark.megabytes(ours + ".postings"), minimal: minimalBytes / 1e6)
        } catch {
            service.stop()
            throw error
        }

        let passItems = min(n, 100_000)
        let pass = try PassBenchmark.firstPassAgainstImport(n: passItems, work: work, scheduler: scheduler)

        var replica: PostgresBenchmark.AfterImport?
        if let postgres {
            replica = try await PostgresBenchmark.serviceAfterImport(n: n, ndjson: ndjson, work: work, scheduler: scheduler, server: postgres)
        }

        let items = n.formatted()
        func latency(_ figures: HTTPBenchmark.Figures?, _ keyPath: KeyPath<HTTPBenchmark.Figures, [Duration]>) -> String {
            guard let figures else { return "(no --postgres)" }
            return Self.p50p99(figures[keyPath: keyPath])
        }
        func load(_ figures: HTTPBenchmark.Figures?, _ keyPath: KeyPath<HTTPBenchmark.Figures, HTTPBenchmark.Load?>) -> String {
            guard let figures else { return "(no --postgres)" }
            guard let load = figures[keyPath: keyPath] else { return "(no wrk)" }
            return String(format: "%.0f req/s, p99 %@", load.requestsPerSecond, load.p99)
        }
        let rows: [(String, String, String, String)] = [
            ("HTTP `/search`, one client, 400 queries new to every cache, p50 / p99", latency(sqlite, \.newQueries), latency(replica?.http, \.newQueries),
             "p99 < 10 ms (PostgreSQL < 20 ms)"),
            ("HTTP, one client, 400 new queries from the moment the import ends, p50 / p99", "",
             replica.map { Self.p50p99($0.rightAfter) } ?? "(no --postgres)", "PostgreSQL p99 < 20 ms, right after an import"),
            ("HTTP, one client, as you type: every keystroke of 50 new queries, p50 / p99", latency(sqlite, \.asYouType), latency(replica?.http, \.asYouType), ""),
            ("`wrk -t2 -c16`, distinct queries, none repeated", load(sqlite, \.neverRepeated), load(replica?.http, \.neverRepeated), "≥ 1,000 req/s, p99 < 30 ms"),
            ("`wrk -t2 -c16`, 300 rotating queries (result cache)", load(sqlite, \.rotating), load(replica?.http, \.rotating), "≥ 3,000 req/s"),
            ("`scheduler index import` against the minimal raw load (one table + one FTS5 table, `prefix='2 3'`)",
             String(format: "%.2f× (%.0f against %.0f items/s)", minimal.seconds / imported.seconds, Double(n) / imported.seconds, Double(n) / minimal.seconds),
             replica.map { String(format: "%.0f items/s, a replica serving", Double(n) / $0.imported.seconds) } ?? "(no --postgres)", "≥ 0.7×"),
            ("the files: the database and its saved search postings, against the minimal raw load's",
             String(format: "%.2f× (%.0f + %.0f MB against %.0f MB)", file.ratio, file.database, file.postings, file.minimal), "", "≤ 0.5×"),
            ("first reconcile pass against `index import` of the same items (\(passItems.formatted()))",
             String(format: "%.2f× (%.1f s against %.1f s)", pass.ratio, pass.pass, pass.import), "", "≥ 0.9×"),
            ("a replica's search copy holds the import, after it ended; its postings", "",
             replica.map { String(format: "%.1f s; %.1f s", $0.catchUp.seconds, $0.postings.seconds) } ?? "(no --postgres)", ""),
            ("a new replica joining: ready after; one client's new queries in its first minute, once ready / all sent; its copy fetched from the first, then made from the store",
             "", replica.map { "\(Self.joined($0.joining)); \(Self.joined($0.joiningWithoutPeers))" } ?? "(no --postgres)", "p99 < 50 ms in its first minute"),
        ]
        print("\n| figure (\(items) items) | SQLite | PostgreSQL, a replica through its search copy | goal |\n|---|---|---|---|")
        for row in rows { print("| \(row.0) | \(row.1) | \(row.2) | \(row.3) |") }
    }

    /// The megabytes of the database, of its saved search postings, and of the minimal raw load's file.
    private struct FileFigures {
        var database: Double, postings: Double, minimal: Double
        var ratio: Double { (database + postings) / max(minimal, 1) }
    }

    /// When a joining replica was ready, and the p50 / p99 of its first minute's new queries, once ready and all.
    private static func joined(_ joining: PostgresBenchmark.Joining) -> String {
        String(format: "%.1f s, %@, %@", joining.ready.seconds, p50p99(joining.afterReady), p50p99(joining.all))
    }

    /// `p50 / p99 ms` of `latencies`.
    private static func p50p99(_ latencies: [Duration]) -> String {
        let sorted = latencies.sorted()
        guard !sorted.isEmpty else { return "—" }
        return String(format: "%.1f / %.1f ms", Benchmark.milliseconds(at: 0.5, ofSorted: sorted), Benchmark.milliseconds(at: 0.99, ofSorted: sorted))
    }
}
