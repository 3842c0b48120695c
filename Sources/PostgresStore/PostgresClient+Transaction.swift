import Logging
import PostgresNIO

extension PostgresClient {
    /// Runs `body` in a transaction, like `withTransaction`, but throws `body`'s own error when it failed and the
    /// rollback went through: callers catch ``Store/LeaseLost`` or a cancellation as themselves, not wrapped.
    func transaction<Result>(
        logger: Logger, isolation: isolated (any Actor)? = #isolation, _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        do {
            return try await withTransaction(logger: logger, isolation: isolation, body)
        } catch let error as PostgresTransactionError {
            if let closureError = error.closureError, error.rollbackError == nil { throw closureError }
            throw error
        }
    }
}
