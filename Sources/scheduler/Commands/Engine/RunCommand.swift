import ArgumentParser
import Engine
import Foundation
import HostSupport
import Logging
import Metrics
import PluginAPI
import Prometheus
import SchedulerConfig
import SchedulerService
import Store

/// `scheduler run`: the long-running service.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the service: the reconcile pass every service.tick and on config changes, and the HTTP API.",
        discussion: """
            The config folder is polled every 2 seconds (and reloaded on SIGHUP): a change that validates is active at \
            once; one that does not keeps the last good config in force, is logged, and shows in /status. SIGTERM or \
            SIGINT stops it gracefully: a run in progress stops at its next batch boundary, and the process exits 0. \
            Admin endpoints need a token: in the file SCHEDULER_ADMIN_TOKEN_FILE names, the systemd credential admin-token, \
            or SCHEDULER_ADMIN_TOKEN. Exits 2 when it cannot start and a restart \
            would not help (an invalid config, a read-only state folder, a refused database password, a port in use), \
            1 when one may (a database that does not answer yet), 3 when another `scheduler run` serves the same database.
            """
    )

    @OptionGroup var log: LogOptions
    @OptionGroup var config: ConfigOptions
    @OptionGroup var replica: ReplicaOptions
    @Option(
        name: .customLong("advertise-url"),
        help: ArgumentHelp(
            "Where other replicas of a PostgreSQL store reach this one's operators' listener, to fetch its search copy (http://host:port); the address it binds by default, unless that is 0.0.0.0 or ::.",
            valueName: "url"
        )
    )
    var advertiseURL: String?
    /// Hidden: a drill's tool, not a setting.
    @Option(help: ArgumentHelp(
        "Run as if this machine's clock were this many seconds ahead (negative: behind), for drills of clock skew between replicas.",
        valueName: "seconds", visibility: .hidden
    ))
    var clockOffset: Int = 0

    func validate() throws {
        if let advertiseURL {
            guard let url = URL(string: advertiseURL), ["http", "https"].contains(url.scheme ?? ""), !(url.host ?? "").isEmpty,
                url.query == nil, url.fragment == nil, url.user == nil
            else {
                throw ValidationError("--advertise-url must be an http:// or https:// URL with a host and no query, like http://10.0.0.5:8080")
            }
        }
    }

    func run() async throws {
        let searchKeySecrets = try Self.starting { try SearchKeySecrets.fromEnvironment() }
        let adminToken = try Self.starting { try AdminToken.load() }
        let logger = log.makeLogger(defaultLevel: .info)
        let loadedFrom = ConfigFolderSnapshot(loader: config.loader)
        let configuration = try config.loadOrExit()
        for warning in configuration.warnings { logger.warning("configuration warning: \(config.located(warning))") }
        var serving = false
        do {
            try await PassLock.withService(localFilesPath: configuration.scheduler.localFilesPath(replicaID: replica.id)) {
                serving = true
                try await serve(configuration, adminToken: adminToken, searchKeySecrets: searchKeySecrets, loadedFrom: loadedFrom, logger: logger)
            }
        } catch where !serving {
            throw Self.refusingToStart(error)
        }
        logger.notice("stopped")
    }

    /// Serves until a shutdown signal, the service's lock held by the caller.
    private func serve(
        _ configuration: SchedulerConfiguration, adminToken: String?, searchKeySecrets: SearchKeySecrets?, loadedFrom: ConfigFolderSnapshot, logger: Logger
    ) async throws {
        // Opened once: a pass takes the lock without opening anything, so a full descriptor table or a folder
        // made read-only later cannot stop the service.
        let passLock = try Self.starting { try PassLock.passLockFile(localFilesPath: configuration.scheduler.localFilesPath(replicaID: replica.id)) }

        let metricsRegistry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(DescribedPrometheusFactory(registry: metricsRegistry))
        let server = SchedulerServer(
            loader: config.loader, loadedFrom: loadedFrom, configuration: configuration,
            passLock: passLock, metricsRegistry: metricsRegistry, adminToken: adminToken, searchKeySecrets: searchKeySecrets,
            replica: replica.name, advertiseURL: advertiseURL, clock: clockOffset == 0 ? SystemWallClock() : OffsetWallClock(offset: TimeInterval(clockOffset)), logger: logger
        )
        do {
            try await server.run { address, routes in
                let line = routes == .operators ? "operators listening on http://\(address)" : "listening on http://\(address)"
                logger.notice("\(line)")
                FileHandle.standardOutput.write(Data("\(line)\n".utf8))
            }
        } catch let failure as any StartupFailure {
            throw Self.refusingToStart(failure)
        }
    }

    /// `step`'s result, or its failure said as "refusing to start" with the exit status it calls for: 3 when
    /// another service holds the database, 1 when a restart may help, 2 otherwise.
    private static func starting<Result>(_ step: () throws -> Result) throws -> Result {
        do {
            return try step()
        } catch {
            throw refusingToStart(error)
        }
    }

    private static func refusingToStart(_ error: any Error) -> ExitCode {
        printError("refusing to start: \(error)")
        if error is PassLock.Busy { return PassLock.busyExitCode }
        return ExitCode((error as? any StartupFailure)?.mayPassOnRetry == true ? 1 : 2)
    }
}
