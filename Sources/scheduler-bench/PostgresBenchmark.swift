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
        var location = try serverLocation(url)
        let database = "scheduler_bench_\(n)"
        try await location.execute(statementWrittenByThisProgram: "DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
        try await location.execute(statementWrittenByThisProgram: "CREATE DATABASE \(database)")
        location.database = database

        let folder = "\(work)/postgres-config-\(n)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // The password, if the URL holds one, reaches the child through its environment, not the file.
        let password = location.password.map { _ in ", passwordFromEnvironment: SCHEDULER_BENCH_PASSWORD" } ?? ""
        if let secret = location.password { setenv("SCHEDULER_BENCH_PASSWORD", secret, 1) }
        try "store: { postgres: { url: \"\(location)\", tls: disable\(password) } }\n"
            .write(toFile: "\(folder)/scheduler.yaml", atomically: true, encoding: .utf8)

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
                made.seconds, Double(n) / made.seconds, Double((try FileManager.default.attributesOfItem(atPath: fresh.path)[.size] as? Int) ?? 0) / 1e6))
            try await Benchmark.measureSearch(store.index, label: "PostgreSQL: ")
            try await PurgeBenchmark.measure(store.index, label: "PostgreSQL: ")
        }
    }

    /// Search latency alone on the store an earlier run left at `url` (`scheduler-bench --search URL`).
    static func measureSearch(url: String) async throws {
        try await withStore(url: url) { index in try await Benchmark.measureSearch(index, label: "PostgreSQL: ") }
    }

    /// Runs `body` with the index of the store an earlier run left at `url`.
    static func withStore(url: String, _ body: @escaping @Sendable (any SearchIndex) async throws -> Void) async throws {
        try await StoreOpener.withStore(.postgres(try serverLocation(url)), logger: Logger(label: "bench")) { store in try await body(store.index) }
    }

    /// The server `url` names, reached without TLS (the bench's servers are local and throwaway).
    private static func serverLocation(_ url: String) throws -> PostgresLocation {
        var location = try PostgresLocation.parse(url: url).get()
        location.tls = .disable
        return location
    }
}
