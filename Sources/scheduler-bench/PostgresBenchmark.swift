import Foundation
import Indexing
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
        let imported = try ChildProcess.measure([scheduler, "index", "import", ndjson, "--config", folder])
        guard imported.status == 0 else { throw BenchmarkError("scheduler index import (PostgreSQL) exited \(imported.status)") }
        print(String(format: "PostgreSQL: scheduler index import: %.1f s, %.0f items/s, peak memory %.0f MB",
            imported.seconds, Double(n) / imported.seconds, Double(imported.peakMemoryBytes) / 1e6))

        // What autovacuum does within a minute of a large import (its analyze threshold is 10 % of the rows changed):
        // the planner then knows which prefixes are common. Measured right away, searches pay for stale statistics.
        try await location.execute(statementWrittenByThisProgram: "ANALYZE item")
        try await StoreOpener.withStore(.postgres(location), logger: Logger(label: "bench")) { store in
            print(String(format: "PostgreSQL: database size: %.0f MB", Double(try await store.storageBytes()) / 1e6))
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
