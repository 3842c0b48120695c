import Foundation
import HostSupport
import Indexing
import Logging
import PostgresNIO
@testable import PostgresStore
import Store
import StoreSupport
import Testing

/// Every session of the store, the pool's and the probe's, starts with the settings the store depends on
/// (``PostgresLocation/sessionSettings``), whatever the server's own configuration says.
@Suite("The settings of the store's sessions", .timeLimit(.minutes(5)))
struct SessionSettingsTests {
    @Test func theStoresSessionsRunWithoutJITAndEndIdleTransactions() async throws {
        try await StoreBackend.postgres.withFreshStore(clock: FixedWallClock(Date(timeIntervalSince1970: 1_790_000_000))) { store in
            let index = try #require(store.index as? PostgresSearchIndex)
            // The server of the tests compiles statements by default (`jit = on` in PostgreSQL 15's configuration).
            for (setting, expected) in [("jit", "off"), ("idle_in_transaction_session_timeout", "15s"), ("application_name", "reindex-scheduler")] {
                let value = try await index.client.checkedQuery("SELECT current_setting(\(setting))", logger: index.logger)
                    .rows.first?.decode(String.self)
                #expect(value == expected, "\(setting)")
            }
        }
    }

    @Test func theProbeConnectionStartsWithTheSameSettings() async throws {
        let server = try StoreBackend.postgresServer()
        let connection = try await PostgresConnection.connect(
            configuration: try server.connectionConfiguration(environment: [:]), id: 1, logger: .init(label: "test")
        )
        defer { Task { [connection] in try? await connection.close() } }
        let value = try await connection.checkedQuery("SELECT current_setting('jit')", logger: .init(label: "test")).rows.first?.decode(String.self)
        #expect(value == "off")
    }
}
