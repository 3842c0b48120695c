import Foundation
import Logging
import PluginAPI
import PostgresStore
import SchedulerConfig
import StoreSupport
import Testing

/// Opening a PostgreSQL store that cannot be used stops at once with what to change, instead of a pool retrying
/// in the background.
@Suite("Opening a PostgreSQL store")
struct PostgresOpeningTests {
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    static func opening(_ location: PostgresLocation, environment: [String: String] = [:]) async -> String {
        do {
            try await PostgresSchedulerStore.withStore(location: location, environment: environment, logger: quiet) { _ in }
            return "opened"
        } catch {
            return "\(error)"
        }
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
        let message = await Self.opening(location, environment: [:])
        #expect(message.contains("names SCHEDULER_TEST_NO_SUCH_VARIABLE, which is not set"), "\(message)")
    }
}
