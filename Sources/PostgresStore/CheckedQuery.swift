import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO
import Store

/// The database closed the connection before answering a statement: one never sent (the connection was closed
/// already), or one whose answer was lost (its effect unknown; a transaction still open did not commit).
struct ConnectionLost: Error, CustomStringConvertible {
    /// Whether the statement was written before the close was seen.
    var sent: Bool
    /// What the server or the connection said, when it said something.
    var reason: String?

    var description: String {
        "the database closed the connection before answering ("
            + (reason ?? "it restarted, or it ended the session while this process was paused inside a transaction past idle_in_transaction_session_timeout")
            + "); "
            + (sent ? "whether the statement took effect is unknown, and a transaction it was in did not commit" : "the statement was not sent")
    }
}

/// A statement the database refused, told as an operator can act on it: the driver's own description hides everything
/// ("Generic description to prevent accidental leakage"). It names the statement's place in this module, the server's
/// message and SQLSTATE (never its detail, which may quote the values of a row); an HTTP client is told the place and
/// SQLSTATE only (``RedactableError``), since the message itself may quote a value.
struct StatementFailed: RedactableError, CustomStringConvertible {
    /// Where the statement is sent from, `Module/File.swift:line`.
    var statement: String
    /// The server's message, or the driver's kind of failure.
    var reason: String
    var sqlState: String?

    var description: String {
        "PostgreSQL could not run the statement at \(statement): \(reason)" + (sqlState.map { " (SQLSTATE \($0))" } ?? "")
    }

    var redactedDescription: String {
        "PostgreSQL could not run the statement at \(statement)" + (sqlState.map { " (SQLSTATE \($0))" } ?? "") + "; the service's log says why"
    }

    /// What `error`, thrown by the driver for the statement at `file`:`line`, is told as: a session the server
    /// ended (a restart, an administrator, a timeout) or a connection that failed under the statement is
    /// ``ConnectionLost``, with what was said.
    static func from(_ error: any Error, file: String, line: Int) -> any Error {
        guard let error = error as? PSQLError else { return error }
        let sqlState = error.serverInfo?[.sqlState], message = error.serverInfo?[.message]
        // Class 57P: the server shuts down or ended the session; 25P03 and 57P05: idle past a timeout.
        if let sqlState, sqlState.hasPrefix("57P") || sqlState == "25P03" {
            return ConnectionLost(sent: true, reason: "\(message ?? "the server ended the session") (SQLSTATE \(sqlState))")
        }
        if error.code == .serverClosedConnection || error.code == .connectionError {
            return ConnectionLost(sent: true, reason: error.underlying.map { "\($0)" })
        }
        let reason = error.code == .server ? message ?? "the server refused it" : "\(error.code)"
        return StatementFailed(statement: "\(file):\(line)", reason: reason, sqlState: sqlState)
    }
}

/// The rows of a statement sent with ``PostgresConnection/checkedQuery(_:logger:file:line:)``, read in full: walked
/// as the driver's rows are (`for try await`, `decode`).
struct CheckedRows: AsyncSequence, Sendable {
    let rows: [PostgresRow]

    func makeAsyncIterator() -> Iterator { Iterator(rows: rows.makeIterator()) }

    /// Walks the rows read.
    struct Iterator: AsyncIteratorProtocol {
        var rows: IndexingIterator<[PostgresRow]>
        mutating func next() async throws -> PostgresRow? { rows.next() }
    }
}

extension PostgresConnection {
    /// How often a statement still waiting checks whether its connection has closed.
    static let closedConnectionCheck: TimeAmount = .seconds(1)

    /// `query(_:logger:)` read in full, guarded against a connection the server has closed. Every statement this
    /// module sends goes through it (or through ``PostgresClient/checkedQuery(_:logger:file:line:)``).
    ///
    /// PostgresNIO 1.33 drops the write of a query to a closed channel without failing the query: its caller would
    /// wait for ever, cancellation included, and a shutdown with it. That is what a process paused (SIGSTOP, a
    /// frozen VM) past `idle_in_transaction_session_timeout` meets when it wakes, and a pool may hand out a
    /// connection whose close it has not seen yet. So a closed connection is refused with ``ConnectionLost`` before
    /// the write, and a statement still waiting once its connection has closed (between that check and the write)
    /// is answered the same way (``watchedQuery(_:logger:file:line:)``).
    @discardableResult
    func checkedQuery(_ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line) async throws -> CheckedRows {
        guard !isClosed else { throw ConnectionLost(sent: false) }
        return try await watchedQuery(query, logger: logger, file: file, line: line)
    }

    /// `query(_:logger:)` read in full, answered with ``ConnectionLost`` within ``closedConnectionCheck`` of the
    /// connection closing if the driver has not answered by then. The statement's answer and the check both run on
    /// the connection's event loop (a future's callback, a repeated task): no task of its own, no hop through the
    /// tasks' shared threads, which a busy replica fills with searches. A statement the driver never answers leaves
    /// only its promise behind. A cancelled caller still waits for the statement and its rows (every statement here
    /// reads a bounded result): a statement cut short would leave the connection busy, or a transaction's outcome
    /// unknown.
    func watchedQuery(_ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line) async throws -> CheckedRows {
        try await withCheckedThrowingContinuation { continuation in
            let answered = NIOLockedValueBox(false)
            /// Gives the answer unless one was given.
            @Sendable func answer(_ result: Result<CheckedRows, any Error>) {
                guard answered.withLockedValue({ given in defer { given = true }; return !given }) else { return }
                continuation.resume(with: result)
            }
            let watch = eventLoop.scheduleRepeatedTask(initialDelay: Self.closedConnectionCheck, delay: Self.closedConnectionCheck) { [self] task in
                guard isClosed else { return }
                task.cancel()
                answer(.failure(ConnectionLost(sent: true)))
            }
            self.query(query, logger: logger, file: file, line: line).whenComplete { result in
                watch.cancel()
                answer(result.map { CheckedRows(rows: $0.rows) }.mapError { StatementFailed.from($0, file: file, line: line) })
            }
        }
    }
}

extension PostgresClient {
    /// The rows of `query`, run on a connection of the pool with ``PostgresConnection/checkedQuery(_:logger:file:line:)``;
    /// once more on another connection when the pool handed out one already closed (the statement was not sent),
    /// as it does right after the database restarted.
    @discardableResult
    func checkedQuery(_ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line) async throws -> CheckedRows {
        func onePooledConnection() async throws -> CheckedRows {
            try await withConnection { connection in try await connection.checkedQuery(query, logger: logger, file: file, line: line) }
        }
        do {
            return try await onePooledConnection()
        } catch let lost as ConnectionLost where !lost.sent {
            return try await onePooledConnection()
        }
    }
}
