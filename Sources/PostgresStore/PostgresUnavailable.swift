import Foundation
import Logging
import NIOSSL
import PostgresNIO
public import Store

/// The database named by `store.postgres` cannot be used, said so that an operator knows what to change. The store
/// tries one connection before it starts its pool: a wrong password or a missing database stops the command at once
/// instead of a pool retrying in the background.
public struct PostgresUnavailable: StartupFailure {
    public var location: PostgresLocation
    public var reason: String
    /// Nothing answered (the server may be starting); a refusal (password, database, TLS) needs an operator.
    public var mayPassOnRetry: Bool

    public var description: String { "cannot use the PostgreSQL store \(location): \(reason)" }

    /// Connects once to `location` with `configuration`, and throws with the reason and the remedy when that fails.
    static func probe(_ location: PostgresLocation, configuration: PostgresConnection.Configuration, logger: Logger) async throws {
        let connection = try await connect(location, configuration: configuration, logger: logger)
        try? await connection.close()
    }

    /// One connection to `location`; a failure is thrown as ``PostgresUnavailable``, with its reason and remedy.
    static func connect(_ location: PostgresLocation, configuration: PostgresConnection.Configuration, logger: Logger) async throws -> PostgresConnection {
        do {
            return try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        } catch {
            let nothingAnswered = (error as? PSQLError)?.code == .connectionError && !((error as? PSQLError)?.underlying is NIOSSLError)
            throw PostgresUnavailable(location: location, reason: explain(error, location), mayPassOnRetry: nothingAnswered)
        }
    }

    /// What a connection failure means for the person who wrote the config.
    static func explain(_ error: any Error, _ location: PostgresLocation) -> String {
        if error is StatementFailed || error is ConnectionLost { return "\(error)" }
        guard let error = error as? PSQLError else {
            // The pool's own errors (its connection attempts keep failing) name no server.
            return "the server at \(location.host):\(location.port) cannot be reached (\(error)); check that it runs and that this machine reaches it"
        }
        let passwordAdvice = location.passwordFromEnvironment.map { "check the password in $\($0)" }
            ?? "put the password in an environment variable and name it in store.postgres.passwordFromEnvironment"
        switch error.code {
        case .authMechanismRequiresPassword:
            return "the server asks user '\(location.username)' for a password and none was given; \(passwordAdvice)"
        case .sslUnsupported:
            return "the server does not offer TLS and store.postgres.tls is require; enable TLS on the server, or set tls: prefer"
        case .connectionError where error.underlying is NIOSSLError:
            return "the TLS handshake failed (\(error.underlying.map { "\($0)" } ?? "")); with tls: require the server's certificate must "
                + "be trusted by this machine's roots and name \(location.host): install its CA, or use tls: prefer"
        case .connectionError:
            let underlying = error.underlying.map { "\($0)" } ?? "no answer"
            return "nothing answers at \(location.host):\(location.port) (\(underlying)); check the host and port, and that the server runs"
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = error.serverInfo?[.message] ?? "the server refused the connection"
            switch state {
            case "3D000": return "\(message); create it (createdb \(location.database)) or fix the database name in the URL"
            case "28P01": return "\(message); \(passwordAdvice)"
            case "28000": return "\(message); allow this host and user in the server's pg_hba.conf"
            case "08P01" where message.hasPrefix("unsupported startup parameter"):
                // PgBouncer's refusal of a parameter it does not track; it names one at a time.
                let names = PostgresLocation.requiredSessionSettings.map(\.0).joined(separator: ", ")
                return "\(message) (SQLSTATE 08P01); a connection pooler refuses the settings the store's sessions start with: "
                    + "add them to its ignore_startup_parameters (PgBouncer: ignore_startup_parameters = \(names), beside any it "
                    + "lists) and set them on the server for the role it logs in as (docs/operating.md, \"Through PgBouncer\")"
            case "42704" where PostgresLocation.requiredSessionSettings.contains { message.contains("\"\($0.0)\"") }:
                // `jit` came with PostgreSQL 11, `idle_in_transaction_session_timeout` with 9.6.
                return "\(message) (SQLSTATE 42704); the server is older than PostgreSQL 11, which the store needs"
            default: return message + (state.isEmpty ? "" : " (SQLSTATE \(state))")
            }
        default:
            // The description of a PSQLError hides its details on purpose; its code names the kind.
            return "the connection to \(location.host):\(location.port) failed (\(error.code)); check that the server runs and that this machine reaches it"
        }
    }
}
