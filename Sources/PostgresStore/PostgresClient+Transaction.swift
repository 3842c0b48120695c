import Logging
import PostgresNIO

/// The database closed the connection in the middle of a transaction: nothing of it was committed.
struct ConnectionLost: Error, CustomStringConvertible {
    var description: String {
        "the database closed the connection in the middle of a transaction (restarted, or the session sat idle in it past "
            + "idle_in_transaction_session_timeout while this process was paused); nothing of it was committed, and the work is tried again"
    }
}

extension PostgresClient {
    /// Runs `body` in a transaction on a connection of the pool: `BEGIN`, `body`, `COMMIT`, or `ROLLBACK` when
    /// `body` throws, whose own error is then thrown (callers catch ``Store/LeaseLost`` or a cancellation as
    /// themselves).
    ///
    /// Unlike `withTransaction`, it never writes to a connection the server has closed. PostgresNIO 1.33 does not
    /// fail a query written to a closed connection once its handler has left the channel: the caller awaits for
    /// ever, cancellation included. That is what happens to a process paused (SIGSTOP, a frozen VM) inside a
    /// transaction past `idle_in_transaction_session_timeout`: when it wakes, the server has ended the session, the
    /// pending query fails, and a `ROLLBACK` sent after it would hang the task, and the shutdown with it. `body`
    /// sends its statements with ``PostgresConnection/checkedQuery(_:logger:file:line:)`` for the same reason.
    func transaction<Result>(
        logger: Logger, isolation: isolated (any Actor)? = #isolation, _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        try await withConnection(isolation: isolation) { connection in
            try await connection.checkedQuery("BEGIN", logger: logger)
            let value: Result
            do {
                value = try await body(connection)
            } catch {
                if !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
                throw error
            }
            try await connection.checkedQuery("COMMIT", logger: logger)
            return value
        }
    }
}

extension PostgresClient {
    /// The rows of `query`, run on a connection of the pool with ``PostgresConnection/checkedQuery(_:logger:file:line:)``:
    /// what the leases use, whose renewals and releases must not hang on a connection closed while this process was
    /// paused.
    @discardableResult
    func checkedRows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await withConnection { connection in try await connection.checkedQuery(query, logger: logger).collect() }
    }
}

extension PostgresConnection {
    /// `query(_:logger:)`, refused with ``ConnectionLost`` when the server has closed this connection: written to a
    /// closed connection, PostgresNIO 1.33's query would never return (see ``PostgresClient/transaction(logger:isolation:_:)``).
    /// Every statement on a connection of our own (a transaction's, a migration's) goes through it.
    @discardableResult
    func checkedQuery(_ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line) async throws -> PostgresRowSequence {
        guard !isClosed else { throw ConnectionLost() }
        return try await self.query(query, logger: logger, file: file, line: line)
    }
}
