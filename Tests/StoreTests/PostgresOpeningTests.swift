import Foundation
import Logging
import PluginAPI
import SchedulerService
import Store
import StoreSupport
import Testing

/// Opening a PostgreSQL store that cannot be used stops at once with what to change, instead of a pool retrying
/// in the background.
@Suite("Opening a PostgreSQL store")
struct PostgresOpeningTests {
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    static func opening(_ location: PostgresLocation) async -> String {
        do {
            try await StoreOpener.withStore(.postgres(location), logger: quiet) { _ in }
            return "opened"
        } catch {
            return "\(error)"
        }
    }

    /// Replicas starting together on a new database: the migrations run once, under their advisory lock, and every
    /// replica opens the store.
    @Test func replicasOpeningANewDatabaseTogetherAllSucceed() async throws {
        guard case .postgres(let location) = try await StoreBackend.postgres.freshLocation(in: FileManager.default.temporaryDirectory) else {
            Issue.record("not a PostgreSQL location")
            return
        }
        let opened = try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    try await StoreOpener.withStore(.postgres(location), logger: Self.quiet) { try await $0.index.lastCommitNumber() }
                }
            }
            return try await group.reduce(into: [Int64]()) { $0.append($1) }
        }
        #expect(opened == Array(repeating: 0, count: 6))
    }

    @Test func aMissingDatabaseIsNamedWithTheCommandThatCreatesIt() async throws {
        var location = try StoreBackend.postgresServer()
        location.database = "no_such_database"
        let message = await Self.opening(location)
        #expect(message.contains("database \"no_such_database\" does not exist; create it (createdb no_such_database)"), "\(message)")
    }

    @Test func aServerThatDoesNotAnswerIsNamedByHostAndPort() async throws {
        var location = try StoreBackend.postgresServer()
        location.port = 1
        let message = await Self.opening(location)
        #expect(message.contains("nothing answers at \(location.host):1"), "\(message)")
    }

    @Test func aPasswordVariableThatIsNotSetIsNamed() async throws {
        var location = try StoreBackend.postgresServer()
        location.passwordFromEnvironment = "SCHEDULER_TEST_NO_SUCH_VARIABLE"
        let message = await Self.opening(location)
        #expect(message.contains("names SCHEDULER_TEST_NO_SUCH_VARIABLE, which is not set"), "\(message)")
    }
}
