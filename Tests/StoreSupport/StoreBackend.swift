public import Foundation
public import HostSupport
import Logging
import MemoryStore
public import PluginAPI
import PostgresStore
public import SchedulerConfig
import SchedulerService
public import Store

/// The store backends every store and engine test runs against: a real SQLite file, a real PostgreSQL database, and
/// the memory twin (held to the same suite, never instead of the real ones).
public enum StoreBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres, memory

    /// The backends that keep a store across processes: what tests of reopening, files and servers run against.
    public static let real: [StoreBackend] = [.sqlite, .postgres]

    /// The memory twin has no location to open again.
    public struct NoLocation: Error, CustomStringConvertible {
        public var description: String { "the memory twin lives in one process and has no location: run this test on StoreBackend.real" }
    }

    public var description: String { rawValue }

    /// The tests need a PostgreSQL server and none was given: they fail with this, they never skip.
    public struct NoPostgresServer: Error, CustomStringConvertible {
        public var description: String {
            "the PostgreSQL tests need a server: run them with `scripts/with-postgres swift test`, "
                + "or set SCHEDULER_TEST_POSTGRES_URL to a superuser's URL (postgres://user@host:port/database)"
        }
    }

    /// The server the PostgreSQL tests create their databases on (`SCHEDULER_TEST_POSTGRES_URL`).
    public static func postgresServer() throws -> PostgresLocation {
        guard let url = ProcessInfo.processInfo.environment["SCHEDULER_TEST_POSTGRES_URL"] else { throw NoPostgresServer() }
        var location = try PostgresLocation.parse(url: url).get()
        location.tls = .disable
        return location
    }

    /// A new, empty store: an SQLite file in `folder`, or a new database on the test server.
    public func freshLocation(in folder: URL) async throws -> StoreLocation {
        switch self {
        case .memory:
            throw NoLocation()
        case .sqlite:
            return .sqlite(path: folder.appendingPathComponent("index.sqlite").path)
        case .postgres:
            var server = try Self.postgresServer()
            let name = "scheduler_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try await server.execute(statementWrittenByThisProgram: "CREATE DATABASE \(name)")
            server.database = name
            return .postgres(server)
        }
    }
}

extension StoreBackend {
    /// Runs `body` with a new, empty store of this backend, opened as the service opens one; its folder is removed
    /// afterwards (a PostgreSQL test database stays on the throwaway server).
    public func withFreshStore<Result: Sendable>(
        clock: any WallClock, historyLength: Int = StoreDefaults.historyLength,
        _ body: @escaping @Sendable (any SchedulerStore) async throws -> Result
    ) async throws -> Result {
        if self == .memory { return try await body(MemoryStore(historyLength: historyLength, clock: clock)) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = try await freshLocation(in: folder)
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        return try await StoreOpener.withStore(location, historyLength: historyLength, clock: clock, logger: quiet, body)
    }
}
