import Logging
import PostgresNIO

extension PostgresClient {
    /// Runs `body` in a transaction on a connection of the pool: `BEGIN`, `body`, `COMMIT`, or `ROLLBACK` when
    /// `body` throws, whose own error is then thrown (callers catch ``Store/LeaseLost`` or a cancellation as
    /// themselves).
    ///
    /// Unlike `withTransaction`, every statement goes through ``PostgresConnection/checkedQuery(_:logger:file:line:)``,
    /// so none waits for ever on a connection the server has closed: that is what happens to a process paused
    /// (SIGSTOP, a frozen VM) inside a transaction past `idle_in_transaction_session_timeout`; when it wakes, the
    /// server has ended the session. `body` sends its statements the same way.
    func transaction<Result>(
        logger: Logger, file: String = #fileID, line: Int = #line, isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        try await withConnection(isolation: isolation) { connection in
            try await connection.checkedQuery("BEGIN", logger: logger, file: file, line: line)
            let value: Result
            do {
                value = try await body(connection)
            } catch {
                _ = try? await connection.checkedQuery("ROLLBACK", logger: logger)
                throw error
            }
            try await connection.checkedQuery("COMMIT", logger: logger, file: file, line: line)
            return value
        }
    }
}
