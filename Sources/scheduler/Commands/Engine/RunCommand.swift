import ArgumentParser
import Engine
import Foundation
import Logging
import Metrics
import PluginAPI
import Prometheus
import SchedulerConfig
import SchedulerService
import ServiceLifecycle

/// `scheduler run`: the long-running service.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the service: the reconcile pass every service.tick and on config changes, and the HTTP API.",
        discussion: """
            The config folder is polled every 2 seconds (and reloaded on SIGHUP): a change that validates is active at \
            once; one that does not keeps the last good config in force, is logged, and shows in /status. SIGTERM or \
            SIGINT stops it gracefully: a run in progress stops at its next batch boundary, and the process exits 0. \
            Admin endpoints need SCHEDULER_ADMIN_TOKEN in the environment. Exits 2 when the config is invalid at \
            start, 3 when another `scheduler run` serves the same database.
            """
    )

    @OptionGroup var log: LogOptions
    @OptionGroup var config: ConfigOptions

    func run() async throws {
        let logger = log.makeLogger(defaultLevel: .info)
        let loadedFrom = ConfigFolderSnapshot(directory: config.loader.directory)
        let configuration = try config.loadOrExit()
        let serviceLock: PassLock
        do {
            serviceLock = try PassLock.service(databasePath: configuration.scheduler.databasePath)
        } catch let busy as PassLock.Busy {
            printError("refusing to start: \(busy)")
            throw PassLock.busyExitCode
        }
        defer { withExtendedLifetime(serviceLock) {} }
        // Opened once: a pass takes the lock without opening anything, so a full descriptor table or a folder
        // made read-only later cannot stop the service.
        let passLock: LockFile
        do {
            passLock = try PassLock.passLockFile(databasePath: configuration.scheduler.databasePath)
        } catch {
            printError("refusing to start: \(error)")
            throw ExitCode(2)
        }

        let metricsRegistry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metricsRegistry))
        let store = try StoreOpener.open(configuration.scheduler, clock: SystemWallClock(), logger: logger)
        let active = ActiveConfiguration(configuration)
        let trigger = PassTrigger(), health = ServiceHealth(), metrics = SchedulerMetrics()
        let loop = ReconcileLoop(
            active: active, store: store, processes: StoreOpener.processLedger(configuration.scheduler), passLock: passLock, registry: BuiltinPlugins.registry, trigger: trigger, health: health, metrics: metrics, logger: logger
        )
        let watcher = ConfigWatcher(
            loader: config.loader, loadedFrom: loadedFrom, active: active, trigger: trigger, metrics: metrics, logger: logger
        )
        let api = SchedulerAPI(
            active: active, store: store, passLock: passLock, trigger: trigger, health: health, metricsRegistry: metricsRegistry,
            authorization: AdminAuthorization(token: ProcessInfo.processInfo.environment["SCHEDULER_ADMIN_TOKEN"])
        )
        let server = api.application(settings: configuration.scheduler, logger: logger) { address in
            logger.notice("listening on http://\(address)")
            FileHandle.standardOutput.write(Data("listening on http://\(address)\n".utf8))
        }
        var group = ServiceGroupConfiguration(
            services: [.init(service: loop), .init(service: watcher), .init(service: server)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
        )
        group.maximumGracefulShutdownDuration = .seconds(30)
        try await ServiceGroup(configuration: group).run()
        logger.notice("stopped")
    }
}
