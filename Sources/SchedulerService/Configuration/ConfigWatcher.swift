import Foundation
public import Logging
public import SchedulerConfig
public import ServiceLifecycle
import UnixSignals

/// Watches the config folder and reloads it when its files change (polled) or on SIGHUP.
///
/// A change that loads becomes active at once and wakes the reconcile loop, so turning a gate off purges
/// its domain within seconds. A change that does not load keeps the last good configuration in force,
/// logs every problem with its file:line:col at warning level, and is shown in `/status`.
public struct ConfigWatcher: Service {
    let loader: ConfigLoader
    let loadedFrom: ConfigFolderSnapshot
    let active: ActiveConfiguration
    let trigger: PassTrigger
    let pollInterval: Duration
    let metrics: SchedulerMetrics
    let logger: Logger

    /// Watches the folder of `loader`, whose active configuration was loaded after `loadedFrom` was taken.
    public init(
        loader: ConfigLoader, loadedFrom: ConfigFolderSnapshot, active: ActiveConfiguration, trigger: PassTrigger,
        pollInterval: Duration = .seconds(2), metrics: SchedulerMetrics, logger: Logger
    ) {
        self.loader = loader
        self.loadedFrom = loadedFrom
        self.active = active
        self.trigger = trigger
        self.pollInterval = pollInterval
        self.metrics = metrics
        self.logger = logger
    }

    public func run() async throws {
        let state = WatchState(snapshot: loadedFrom)
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        // Watching ends with the service: a graceful shutdown cancels it, which is its normal end.
        do {
            try await watch(state, hangups: hangups)
        } catch is CancellationError {}
    }

    private func watch(_ state: WatchState, hangups: UnixSignalsSequence) async throws {
        try await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in hangups {
                        logger.info("SIGHUP: reloading the configuration")
                        await reload(state, force: true)
                    }
                }
                group.addTask {
                    while true {
                        try await Task.sleep(for: pollInterval)
                        await reload(state, force: false)
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// Reloads when the files changed since the last look, or always when `force`d.
    func reload(_ state: WatchState, force: Bool) async {
        let snapshot = ConfigFolderSnapshot(loader: loader)
        guard await state.update(snapshot) || force else { return }
        do {
            let configuration = try loader.load()
            let previous = await active.current
            await active.activate(configuration)
            metrics.prepare(for: configuration)
            logger.notice("configuration reloaded", metadata: ["sources": "\(configuration.scheduler.sources.count)"])
            warnOfGatesTurnedOff(from: previous, to: configuration)
            for warning in configuration.warnings { logger.warning("configuration warning: \(warning)") }
            trigger.wake(.configurationChanged)
        } catch {
            await active.reject(error.problems)
            metrics.configReloadFailed()
            for problem in error.problems {
                logger.warning("configuration change refused, the last good one stays in force: \(problem)")
            }
        }
    }

    /// Warns of the units a reloaded configuration turns off (their gate on before, validly off now): the pass it
    /// wakes purges their domains.
    func warnOfGatesTurnedOff(from previous: SchedulerConfiguration, to configuration: SchedulerConfiguration) {
        let now = Date()
        let wasOn = Set(previous.plans(at: now).filter(\.gateDecision.isOn).map(\.unit.key))
        let turnedOff = configuration.plans(at: now).filter { $0.gateDecision.state == .off && wasOn.contains($0.unit.key) }
        guard !turnedOff.isEmpty else { return }
        logger.warning(
            "the configuration change turns \(turnedOff.count) unit(s) off: their domains are purged now",
            metadata: ["units": "\(turnedOff.prefix(20).map { "\($0.unit.key) (\($0.gateDecision.reason))" }.joined(separator: "; "))"]
        )
    }

    /// The snapshot seen last.
    actor WatchState {
        var snapshot: ConfigFolderSnapshot
        init(snapshot: ConfigFolderSnapshot) { self.snapshot = snapshot }

        /// Records `new`; whether it differs from the previous one.
        func update(_ new: ConfigFolderSnapshot) -> Bool {
            defer { snapshot = new }
            return new != snapshot
        }
    }
}
