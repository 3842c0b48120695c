import Logging
import PostgresNIO

/// One step of ``PostgresSchema``: its name, recorded once applied, and what it does inside the migrations'
/// transaction, statements or a rewrite computed in Swift.
struct PostgresMigration: Sendable {
    var name: String
    var apply: @Sendable (PostgresConnection, Logger) async throws -> Void

    /// A migration made of SQL statements, run in order.
    static func statements(_ name: String, _ statements: [String]) -> Self {
        Self(name: name) { connection, logger in
            for (number, statement) in statements.enumerated() {
                try await connection.checkedQuery(PostgresQuery(unsafeSQL: statement), logger: logger, file: "migration \(name), statement", line: number + 1)
            }
        }
    }
}
