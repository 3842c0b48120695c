import Foundation
import HostSupport
import Logging
import PostgresNIO
@testable import PostgresStore
import Indexing
import Store
import StoreSupport
import Testing

/// A statement on a connection the server has closed is answered, never awaited for ever: PostgresNIO 1.33 drops a
/// query written to a closed channel, and a caller awaiting it (a replica's search copy following the store) held
/// the shutdown of a replica woken from a pause past `idle_in_transaction_session_timeout`.
///
/// A statement never answered would hold its test for ever: each waits under a deadline far longer than the answer
/// takes, whose ``StoreDeadline/Missed`` is the failure.
@Suite("Statements on connections the server closed", .timeLimit(.minutes(10)))
struct ClosedConnectionTests {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    @Test func aClosedConnectionIsRefusedAndAStatementWrittenToItIsAnswered() async throws {
        let server = try StoreBackend.postgresServer()
        let connection = try await PostgresConnection.connect(configuration: try server.connectionConfiguration(environment: [:]), id: 1, logger: logger)
        var backend: Int32?
        do {
            for try await pid in try await connection.checkedQuery("SELECT pg_backend_pid()", logger: logger).decode(Int32.self) { backend = pid }
        } catch {
            try? await connection.close()
            throw error
        }
        let pid = try #require(backend)
        try await server.execute(statementWrittenByThisProgram: "SELECT pg_terminate_backend(\(pid))")
        try await connection.closeFuture.get()

        // Refused before the write.
        let refused = await #expect(throws: ConnectionLost.self) { try await Self.deadline.run { try await connection.checkedQuery("SELECT 1", logger: logger) } }
        #expect(refused?.sent == false)
        // Written past that check (a close between the check and the write): the driver never answers it; the watch does.
        let unanswered = await #expect(throws: ConnectionLost.self) { try await Self.deadline.run { try await connection.watchedQuery("SELECT 1", logger: logger) } }
        #expect(unanswered?.sent == true)
    }

    /// A session the server ends while a statement runs (an administrator, a restart, a timeout) is told as the
    /// connection lost, and a statement the server refuses names its place, the server's message and SQLSTATE: never
    /// the driver's "Generic description to prevent accidental leakage", which a failed pass logged.
    @Test func aFailedStatementSaysWhatFailedAndWhere() async throws {
        let server = try StoreBackend.postgresServer()
        let connection = try await PostgresConnection.connect(configuration: try server.connectionConfiguration(environment: [:]), id: 1, logger: logger)
        defer { Task { [connection] in try? await connection.close() } }
        let refused = await #expect(throws: StatementFailed.self) { try await connection.checkedQuery("SELECT 1 / (random() * 0)::int", logger: logger) }
        #expect(refused?.description.contains("division by zero") == true, "\(String(describing: refused))")
        #expect(refused?.description.contains("SQLSTATE 22012") == true)
        #expect(refused?.statement.hasPrefix("PostgresStoreTests/ClosedConnectionTests.swift:") == true, "\(String(describing: refused))")
        // An HTTP client is told where and which SQLSTATE, not the message (it may quote a value); a health check, all.
        #expect(refused?.redactedDescription.contains("SQLSTATE 22012") == true && refused?.redactedDescription.contains("division") == false)
        let explained = refused.map { PostgresUnavailable.explain($0, server) } ?? ""
        #expect(explained.contains("division by zero") && !explained.contains("cannot be reached"), "\(explained)")

        let backend = try #require(try await connection.checkedQuery("SELECT pg_backend_pid()", logger: logger).rows.first?.decode(Int32.self))
        let sleeping = Task { [logger] in try await connection.checkedQuery("SELECT pg_sleep(60)", logger: logger) }
        let administrator = try await PostgresConnection.connect(configuration: try server.connectionConfiguration(environment: [:]), id: 2, logger: logger)
        defer { Task { [administrator] in try? await administrator.close() } }
        let terminate = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = \(backend) AND query LIKE 'SELECT pg_sleep%'"
        while try await administrator.checkedQuery(PostgresQuery(unsafeSQL: terminate), logger: logger).rows.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
        }
        let lost = await #expect(throws: ConnectionLost.self) { try await Self.deadline.run { _ = try await sleeping.value } }
        #expect(lost?.sent == true)
        #expect(lost?.description.contains("SQLSTATE 57P01") == true, "\(String(describing: lost))")
    }

    /// Every statement of the module goes through ``PostgresConnection/checkedQuery(_:logger:file:line:)``: the
    /// driver's `query` is called in `CheckedQuery.swift` alone (the test above covers one connection; this, every
    /// statement written since).
    @Test func noStatementBypassesTheCheck() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/PostgresStore").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.contains("CheckedQuery.swift"))
        for file in files where file != "CheckedQuery.swift" {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            let calls = code.filter { $0.contains(".query(") || $0.contains("withTransaction") || $0.contains(".execute(") }
            #expect(calls.isEmpty, "\(file): \(calls)")
        }
    }

    @Test func everySessionEndedAtOnceLeavesNoCallWaiting() async throws {
        try await StoreBackend.postgres.withFreshStore(clock: SystemWallClock()) { store in
            let leases = try #require(store.leases)
            // Several connections open in the pool, then every session of the database ended by the server, as a
            // restart or a pause past the timeout does.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<6 { group.addTask { _ = try await store.units() } }
                try await group.waitForAll()
            }
            let database = try #require(store as? PostgresSchedulerStore).postgresLocation.database
            try await StoreBackend.postgresServer().execute(statementWrittenByThisProgram: """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()
                """)
            // Each call is answered: an error while the pool sees the closes, a result once it reconnects.
            let feed = try #require(store.index as? any IndexChangeFeed)
            var missed: [String] = []
            for _ in 0..<3 {
                missed += await withTaskGroup(of: String?.self) { group in
                    for _ in 0..<6 {
                        group.addTask { await Self.missesDeadline("units") { _ = try await store.units() } }
                        group.addTask { await Self.missesDeadline("liveLeases") { _ = try await leases.liveLeases() } }
                        group.addTask { await Self.missesDeadline("lastCommitNumber") { _ = try await store.index.lastCommitNumber() } }
                        group.addTask { await Self.missesDeadline("feedHead") { _ = try await feed.feedHead() } }
                    }
                    return await group.compactMap { $0 }.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(missed.isEmpty)
            // And the store works again.
            #expect(try await leases.replicas().isEmpty)
        }
    }

    /// Far longer than any answer here takes (a closed connection is seen within a second), even on a busy machine.
    static let deadline = StoreDeadline(limit: .seconds(120))

    /// `name` when `call` is not answered (with a result or an error) within ``deadline``. A deadline of the store's
    /// own missed inside the call (the feed head's shared read gives up after 2 s while the server reconnects) is an
    /// answer.
    static func missesDeadline(_ name: String, _ call: @escaping @Sendable () async throws -> Void) async -> String? {
        do {
            try await deadline.run(call)
        } catch let missed as StoreDeadline.Missed where missed.limit == deadline.limit {
            return name
        } catch {}
        return nil
    }
}
