import Foundation
import Indexing
import SQLiteStore
import Logging
import PostgresStore
import SchedulerConfig
import SchedulerService
import Store

/// The import, search and purge figures on PostgreSQL, beside SQLite's: `scheduler-bench N --postgres URL`, where
/// URL names a server and a user allowed to create databases. Each size gets a fresh database `scheduler_bench_N`.
enum PostgresBenchmark {
    static func run(n: Int, ndjson: String, work: String, scheduler: String, server url: String) async throws {
        let (location, store) = try await freshDatabase("scheduler_bench_\(n)", server: url)
        let folder = "\(work)/postgres-config-\(n)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "store: \(store)\n".write(toFile: "\(folder)/scheduler.yaml", atomically: true, encoding: .utf8)

        // A replica's search copy follows the import as the service's follower does (every second); the figures
        // after the import are those a user searching right then sees.
        let quiet = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        let following = SQLiteSearchCopy(path: "\(work)/postgres-copy-\(n).sqlite", searchCacheEntries: 0, logger: quiet)
        try await StoreOpener.withStore(.postgres(location), searchCopy: following, logger: quiet) { store in
            guard let feed = store.index as? any IndexChangeFeed else { throw BenchmarkError("the PostgreSQL index is no feed") }
            try await following.follow(feed)
            let imported = try await withThrowingTaskGroup(of: ChildProcess.Measurement?.self) { group in
                group.addTask {
                    while !Task.isCancelled {
                        do {
                            try await following.follow(feed)
                        } catch is CancellationError {
                            break
                        }
                        try? await Task.sleep(for: .seconds(1))
                    }
                    return nil
                }
                // Waits on this task's thread; the follower has the other.
                let imported = try ChildProcess.measure([scheduler, "index", "import", ndjson, "--config", folder])
                group.cancelAll()
                while let next = try await group.next() { _ = next }
                return imported
            }
            guard imported.status == 0 else { throw BenchmarkError("scheduler index import (PostgreSQL) exited \(imported.status)") }
            print(String(format: "PostgreSQL: scheduler index import: %.1f s, %.0f items/s, peak memory %.0f MB (a search copy following it)",
                imported.seconds, Double(n) / imported.seconds, Double(imported.peakMemoryBytes) / 1e6))
            let catchUp = ContinuousClock.now
            try await following.follow(feed)
            print(String(format: "PostgreSQL: the search copy reached the head %.2f s after the import ended", catchUp.duration(to: .now).seconds))
            try await Benchmark.measureSearch(store.index, label: "PostgreSQL, through its search copy, right after the import: ")
        }

        // What autovacuum does within a minute of a large import (its analyze threshold is 10 % of the rows changed):
        // the planner then knows which prefixes are common. Measured right away, searches pay for stale statistics.
        try await location.execute(statementWrittenByThisProgram: "ANALYZE item")
        try await StoreOpener.withStore(.postgres(location), logger: Logger(label: "bench")) { store in
            print(String(format: "PostgreSQL: database size: %.0f MB", Double(try await store.storageBytes()) / 1e6))
            let fresh = SQLiteSearchCopy(path: "\(work)/postgres-fresh-copy-\(n).sqlite", searchCacheEntries: 0, logger: quiet)
            let making = ContinuousClock.now
            guard let feed = store.index as? any IndexChangeFeed else { throw BenchmarkError("the PostgreSQL index is no feed") }
            try await fresh.follow(feed)
            let made = making.duration(to: .now)
            print(String(format: "PostgreSQL: a new replica's search copy made in %.1f s (%.0f items/s), %.0f MB",
                made.seconds, Double(n) / made.seconds, Benchmark.megabytes(fresh.path)))
            try await Benchmark.measureSearch(store.index, label: "PostgreSQL: ")
            try await PurgeBenchmark.measure(store.index, label: "PostgreSQL: ")
        }
    }

    /// What a replica's users see after a large import.
    struct AfterImport {
        var imported: ChildProcess.Measurement
        /// From the import's end until the replica's search copy held it, and until its postings did.
        var catchUp: Duration
        var postings: Duration
        /// One client's new queries from the moment the import ended: what users see right after it.
        var rightAfter: [Duration]
        var http: HTTPBenchmark.Figures
        /// A new replica fetching its copy from the first, and one making it from the store (no admin token).
        var joining: Joining
        var joiningWithoutPeers: Joining
    }

    /// A new replica joining a store whose replica has its search copy made.
    struct Joining {
        /// From its start until `/readyz` said ready.
        var ready: Duration
        /// One client's new queries over its first minute, from the moment it listened: sent once it was ready, and all.
        var afterReady: [Duration]
        var all: [Duration]
    }

    /// Starts another replica of the service on `folder`'s store, once the first's copy is made and offered: how long
    /// until it is ready, and what one client sending new queries from the moment it listens sees over its first
    /// minute. With `fetching`, it fetches its copy from the first; without, it has no admin token and makes its copy
    /// from the store, as every new replica did before (it is ready at once; PostgreSQL answers until the copy is made).
    static func newReplicaJoins(folder: String, scheduler: String, fetching: Bool) async throws -> Joining {
        let second = try ServiceProcess(
            scheduler: scheduler, config: folder, arguments: ["--replica-id", fetching ? "joining" : "joining-from-the-store"],
            unsetting: fetching ? [] : ["SCHEDULER_ADMIN_TOKEN"]
        )
        defer { second.stop() }
        let started = ContinuousClock.now
        async let ready = second.waitUntilReady()
        let searches = try await HTTPBenchmark.oneClient(
            base: second.base, texts: Benchmark.typedQueries(100_000, seed: 9_002), until: started.advanced(by: .seconds(60)), refusalsAllowed: true
        )
        let readyAfter = try await ready
        let onceReady = searches.filter { started.duration(to: $0.sent) >= readyAfter }
        let how = fetching ? "its search copy fetched from the first" : "its search copy made from the store, no admin token"
        print(String(format: "PostgreSQL, a new replica joining (%@): ready %.2f s after it listened", how, readyAfter.seconds))
        print("  one client's new queries over its first minute: \(searches.count) sent, \(Benchmark.percentiles(searches.map(\.latency))); "
            + "\(onceReady.count) sent once ready, \(Benchmark.percentiles(onceReady.map(\.latency))); "
            + "\(searches.filter(\.refused).count) refused (503), \(onceReady.filter(\.refused).count) of them once ready")
        print("  its memory: \(second.memory())")
        return Joining(ready: readyAfter, afterReady: onceReady.map(\.latency), all: searches.map(\.latency))
    }

    /// What a replica's users see right after a large import: `scheduler run` serving a new database `scheduler_goals_N`
    /// on the server `url` names (its search copy on, as by default) while `scheduler index import` writes N items into
    /// it from another process. From the moment the import ends, one client searches new queries (answered by the store
    /// until the copy holds the import, scanning rows until its postings do); once they hold every item, its search is
    /// measured over HTTP.
    static func serviceAfterImport(n: Int, ndjson: String, work: String, scheduler: String, server url: String) async throws -> AfterImport {
        let (location, store) = try await freshDatabase("scheduler_goals_\(n)", server: url)
        let folder = "\(work)/postgres-service-\(n)"
        try ServiceProcess.writeServingConfig(store: store, to: folder)
        let copy = StoreLocation.postgres(location).localFilesPath(configDirectory: URL(fileURLWithPath: folder)) + ".search.sqlite"

        // The replicas share an admin token, through which a new one fetches the first's search copy.
        setenv("SCHEDULER_ADMIN_TOKEN", UUID().uuidString, 1)
        let service = try ServiceProcess(scheduler: scheduler, config: folder)
        defer { service.stop() }
        let imported = try ChildProcess.measure([scheduler, "index", "import", ndjson, "--config", folder])
        guard imported.status == 0 else { throw BenchmarkError("scheduler index import (PostgreSQL) exited \(imported.status)") }
        print(String(format: "PostgreSQL, a replica serving: scheduler index import: %.1f s, %.0f items/s", imported.seconds, Double(n) / imported.seconds))
        let importEnded = ContinuousClock.now
        let head = try await StoreOpener.withStore(.postgres(location), logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }) { store in
            guard let feed = store.index as? any IndexChangeFeed else { throw BenchmarkError("the PostgreSQL index is no feed") }
            return try await feed.feedHead().commitNumber
        }
        // One client searches from the moment the import ends, while the copy's commit and its postings' rows are
        // watched: the searches sent before either held the import are told apart.
        async let copyHeld = waitForCopy(copy, toReach: head, since: importEnded)
        async let postingsHeld = waitForPostings(service, rows: n, since: importEnded)
        let searches = try await HTTPBenchmark.oneClient(base: service.base, texts: Benchmark.typedQueries(400, seed: 9_001))
        let catchUp = try await copyHeld, postings = try await postingsHeld
        let rightAfter = searches.map(\.latency)
        func sent(_ range: Range<Duration>) -> String {
            let latencies = searches.filter { range.contains(importEnded.duration(to: $0.sent)) }.map(\.latency)
            return "\(latencies.count) searches" + (latencies.isEmpty ? "" : ", \(Benchmark.percentiles(latencies))")
        }
        print(String(format: "PostgreSQL, a replica serving: its search copy held the import %.1f s after the import ended, its postings %.1f s after",
            catchUp.seconds, postings.seconds))
        print("PostgreSQL replica (search copy): one client over HTTP from the import's end, 400 new queries, top 20: \(Benchmark.percentiles(rightAfter))")
        print("  sent before the copy held the import (the store answers): \(sent(.zero..<catchUp)); before its postings did (rows scanned): "
            + "\(sent(catchUp..<max(catchUp, postings))); after: \(sent(max(catchUp, postings)..<Duration.seconds(3600)))")
        let http = try await HTTPBenchmark.measure(base: service.base, work: work, label: "PostgreSQL replica (search copy): ")
        let joining = try await newReplicaJoins(folder: folder, scheduler: scheduler, fetching: true)
        let joiningWithoutPeers = try await newReplicaJoins(folder: folder, scheduler: scheduler, fetching: false)
        return AfterImport(
            imported: imported, catchUp: catchUp, postings: postings, rightAfter: rightAfter, http: http, joining: joining,
            joiningWithoutPeers: joiningWithoutPeers
        )
    }

    /// How long after `start` the search copy at `path` reached commit `head`.
    private static func waitForCopy(_ path: String, toReach head: Int64, since start: ContinuousClock.Instant) async throws -> Duration {
        while try copiedCommit(path) ?? -1 < head {
            guard start.duration(to: .now) < .seconds(1800) else { throw BenchmarkError("the replica's search copy did not reach commit \(head) in 30 minutes") }
            try await Task.sleep(for: .milliseconds(50))
        }
        return start.duration(to: .now)
    }

    /// How long after `start` the search postings of `service` held `rows` rows.
    private static func waitForPostings(_ service: ServiceProcess, rows: Int, since start: ContinuousClock.Instant) async throws -> Duration {
        _ = try await service.waitForSearchPostings(rows: rows, every: .milliseconds(50))
        return start.duration(to: .now)
    }

    /// The store's commit the search copy at `path` holds, read by `sqlite3` beside the service that writes it; `nil`
    /// before the copy is made.
    private static func copiedCommit(_ path: String) throws -> Int64? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        struct Position: Decodable { var commitNumber: Int64 }
        let sql = "SELECT CAST(state AS TEXT) FROM batch_client_state WHERE batchName = '\(SQLiteSearchCopy.positionBatchName)'"
        guard let text = try ChildProcess.output(["/usr/bin/sqlite3", "-readonly", path, sql]), !text.isEmpty else { return nil }
        return try? JSONDecoder().decode(Position.self, from: Data(text.utf8)).commitNumber
    }

    /// Search latency alone on the store an earlier run left at `url` (`scheduler-bench --search URL`).
    static func measureSearch(url: String) async throws {
        try await withStore(url: url) { index in try await Benchmark.measureSearch(index, label: "PostgreSQL: ") }
    }

    /// Runs `body` with the index of the store an earlier run left at `url`.
    static func withStore(url: String, _ body: @escaping @Sendable (any SearchIndex) async throws -> Void) async throws {
        try await StoreOpener.withStore(.postgres(try serverLocation(url)), logger: Logger(label: "bench")) { store in try await body(store.index) }
    }

    /// A new, empty database `name` on the server `url` names (one left by an earlier run is dropped), and the value of
    /// a config's `store:` that reaches it. The password, if the URL holds one, reaches the scheduler through its
    /// environment, not the file.
    private static func freshDatabase(_ name: String, server url: String) async throws -> (PostgresLocation, store: String) {
        var location = try serverLocation(url)
        try await location.execute(statementWrittenByThisProgram: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        try await location.execute(statementWrittenByThisProgram: "CREATE DATABASE \(name)")
        location.database = name
        let password = location.password.map { _ in ", passwordFromEnvironment: SCHEDULER_BENCH_PASSWORD" } ?? ""
        if let secret = location.password { setenv("SCHEDULER_BENCH_PASSWORD", secret, 1) }
        return (location, "{ postgres: { url: \"\(location)\", tls: disable\(password) } }")
    }

    /// The server `url` (`--postgres`) names, reached without TLS (the bench's servers are local and throwaway).
    static func serverLocation(_ url: String) throws -> PostgresLocation {
        var location = try PostgresLocation.parse(url: url).mapError { BenchmarkError("--postgres '\(url)' \($0.reason)") }.get()
        location.tls = .disable
        return location
    }
}
