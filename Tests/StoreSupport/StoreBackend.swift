public import Foundation
import Indexing
import SQLiteStore
import Synchronization
public import HostSupport
import Logging
import MemoryStore
import PluginAPI
import PostgresStore
import SchedulerConfig
import SchedulerService
public import Store

/// The store backends every store and engine test runs against: a real SQLite file, a real PostgreSQL database, and
/// the memory twin (held to the same suite, never instead of the real ones).
public enum StoreBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres, memory
    /// PostgreSQL whose searches a copy of its index on this machine answers (``SQLiteSearchCopy``), as the service
    /// runs it: every search must come from the copy, or the test fails.
    case postgresSearchCopy = "postgres+copy"

    /// Every store: what every store and engine test runs against.
    public static let allCases: [StoreBackend] = [.sqlite, .postgres, .memory].filter(chosen)
    /// Every store, and PostgreSQL searched through a copy: what tests of search run against.
    public static let searching: [StoreBackend] = allCases + [.postgresSearchCopy].filter(chosen)
    /// The backends that keep a store across processes: what tests of reopening, files and servers run against.
    public static let real: [StoreBackend] = [.sqlite, .postgres].filter(chosen)

    /// Whether the backends `SCHEDULER_TEST_BACKENDS` names (`sqlite,memory`: the contributor's quick loop,
    /// `scripts/quick-test`) include `backend`; unset, as in CI and the README's command, every backend runs.
    private static func chosen(_ backend: StoreBackend) -> Bool {
        guard let names = ProcessInfo.processInfo.environment["SCHEDULER_TEST_BACKENDS"] else { return true }
        let listed = names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return listed.contains(backend.rawValue) || (backend == .postgresSearchCopy && listed.contains(StoreBackend.postgres.rawValue))
    }

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
        case .postgres, .postgresSearchCopy:
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
        guard self == .postgresSearchCopy else {
            return try await StoreOpener.withStore(location, historyLength: historyLength, clock: clock, logger: quiet) { store in
                // As the service keeps them: every search after this catches the postings up itself (the commits of
                // a test are small), so the scans of the best fields and names read them.
                if let index = store.index as? SQLiteSearchIndex { try await index.buildSearchPostings() }
                return try await body(store)
            }
        }
        let copy = AnsweringSearchCopy(SQLiteSearchCopy(
            path: folder.appendingPathComponent("copy.sqlite").path, commitsCaughtUpBySearch: .max, postings: .all, clock: clock, logger: quiet
        ))
        let result = try await StoreOpener.withStore(location, historyLength: historyLength, clock: clock, searchCopy: copy, logger: quiet) { store in
            guard let feed = store.index as? any IndexChangeFeed else { throw AnsweringSearchCopy.DidNotAnswer(description: "the store's index is no feed") }
            _ = try await copy.follow(feed)
            return try await body(store)
        }
        try copy.check()
        return result
    }
}

/// A search copy that must answer every search: a test on ``StoreBackend/postgresSearchCopy`` fails when the store
/// had to answer a search itself, however right its answer.
final class AnsweringSearchCopy: SearchCopy {
    let copy: SQLiteSearchCopy
    private let failures = Mutex<[String]>([])

    init(_ copy: SQLiteSearchCopy) {
        self.copy = copy
    }

    struct DidNotAnswer: Error, CustomStringConvertible {
        var description: String
    }

    func search(_ query: SearchQuery, following feed: any IndexChangeFeed) async throws -> SearchResults? {
        do {
            guard let results = try await copy.search(query, following: feed) else {
                failures.withLock { $0.append("'\(query.text)': the copy could not answer") }
                return nil
            }
            return results
        } catch {
            failures.withLock { $0.append("'\(query.text)': \(error)") }
            throw error
        }
    }

    func follow(_ feed: any IndexChangeFeed) async throws -> Bool {
        try await copy.follow(feed)
    }

    var isMade: Bool { get async { await copy.isMade } }
    var isWarming: Bool { get async { await copy.isWarming } }

    /// Throws when a search was not answered by the copy.
    func check() throws {
        let failures = failures.withLock { $0 }
        if !failures.isEmpty { throw DidNotAnswer(description: "the search copy did not answer: " + failures.joined(separator: "; ")) }
    }
}
