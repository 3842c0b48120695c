import Logging
import NIOSSL
public import PostgresNIO
public import Store

extension PostgresLocation {
    /// Why the store cannot connect before it tries.
    public struct MissingPassword: StartupFailure {
        public var variable: String
        public var mayPassOnRetry: Bool { false }
        public var description: String {
            "store.postgres.passwordFromEnvironment names \(variable), which is not set in this process's environment; export it or remove the setting"
        }
    }

    /// The client configuration for this database, the password read from `environment` when
    /// ``passwordFromEnvironment`` names a variable.
    public func clientConfiguration(environment: [String: String]) throws(MissingPassword) -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS = switch self.tls {
        case .disable: .disable
        case .prefer: .prefer(Self.opportunisticTLS)
        case .require: .require(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: try password(environment: environment), database: database, tls: tls
        )
        configuration.options.maximumConnections = poolSize
        configuration.options.connectTimeout = .seconds(10)
        configuration.options.additionalStartupParameters = Self.sessionSettings
        return configuration
    }

    /// The settings every session of the store starts with.
    static let sessionSettings: [(String, String)] = [
        ("application_name", "reindex-scheduler"),
        // A replica paused in the middle of a transaction (SIGSTOP, a VM freeze) would hold its locks, the commit
        // counter's among them, and stall every other replica: the server ends such a session after 15 s.
        ("idle_in_transaction_session_timeout", "15s"),
        // The server compiles a statement it estimates costly (above `jit_above_cost`) before running it: 30–40 ms of
        // LLVM for a search that walks or looks up many rows, which then runs in 170 ms. Measured at 1M (BENCHMARKS.md,
        // 2026-12-01, day): typed queries, typos and frequent words a quarter to a third faster at the median without.
        ("jit", "off"),
    ]

    /// The session settings the store depends on: all but the application's name, which a pooler may set its own.
    static let requiredSessionSettings = sessionSettings.filter { $0.0 != "application_name" }

    /// The required session settings (``requiredSessionSettings``) the store's sessions do not run with, as `name =
    /// value` (the value they run with): what a connection pooler that ignores them leaves (PgBouncer's
    /// `ignore_startup_parameters`) unless the server sets them for its role.
    static func sessionSettingsNotApplied(on client: PostgresClient, logger: Logger) async throws -> [String] {
        var differing: [String] = []
        for (name, expected) in requiredSessionSettings {
            for try await value in try await client.checkedQuery("SELECT current_setting(\(name))", logger: logger).decode(String.self)
            where value != expected {
                differing.append("\(name) = \(value)")
            }
        }
        return differing
    }

    /// `tls: prefer`: encrypted when the server offers TLS, its certificate not checked (libpq's `sslmode=prefer`),
    /// so a server with a self-signed certificate still connects. `require` checks it against the system's roots.
    static var opportunisticTLS: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        return configuration
    }

    /// The password: from the variable ``passwordFromEnvironment`` names, else from the URL.
    func password(environment: [String: String]) throws(MissingPassword) -> String? {
        guard let variable = passwordFromEnvironment else { return password }
        guard let value = environment[variable] else { throw MissingPassword(variable: variable) }
        return value
    }

    /// One connection's configuration, for the probe that runs before the pool's first connection.
    func connectionConfiguration(environment: [String: String]) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS = switch self.tls {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: Self.opportunisticTLS))
        case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: try password(environment: environment), database: database, tls: tls
        )
        configuration.options.connectTimeout = .seconds(10)
        configuration.options.additionalStartupParameters = Self.sessionSettings
        return configuration
    }

    /// Runs one statement this program wrote (a `CREATE DATABASE` of a name it made, never text from elsewhere) on a
    /// connection of its own: for the tests and the benchmark, which make databases of their own.
    public func execute(statementWrittenByThisProgram sql: String, environment: [String: String] = [:]) async throws {
        let logger = Logger(label: "postgres-maintenance")
        let connection = try await PostgresUnavailable.connect(self, configuration: try connectionConfiguration(environment: environment), logger: logger)
        do {
            try await connection.checkedQuery(PostgresQuery(unsafeSQL: sql), logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}
