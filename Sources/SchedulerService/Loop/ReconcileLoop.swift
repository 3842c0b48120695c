public import Engine
import Foundation
public import HostSupport
public import Logging
public import PluginAPI
import SchedulerConfig
public import ServiceLifecycle
public import Store

/// The service's heart: runs the reconcile pass at start, every `service.tick`, and at once when woken by a
/// config change or an operator.
///
/// On graceful shutdown a pass in progress stops at its next batch boundary: committed batches stay, no
/// success is recorded for the unfinished run, and the next start redoes it. A pass that finds the pass lock
/// held (an operator's `run-once`) is skipped until the next tick. A pass that fails as a whole (the database
/// removed, the disk full) never ends the service: it is logged, counted, shown by `/healthz` and `/status`, and
/// retried after 1 s, doubling up to the tick.
public struct ReconcileLoop: Service {
    let active: ActiveConfiguration
    let store: any SchedulerStore
    /// The plugin process groups running on this database, so a pass can stop those a killed scheduler left.
    let processes: ProcessLedger
    /// The pass lock's file, opened at start: taking the lock opens nothing.
    let passLock: LockFile
    let trigger: PassTrigger
    let health: ServiceHealth
    let metrics: SchedulerMetrics
    let clock: any WallClock
    /// This replica's id, for the leases and the roll of a shared store.
    let replica: String
    let logger: Logger
    /// The runs started in the last minute, across passes (`service.maxStartsPerMinute`).
    let starts: StartLimiter

    public init(
        active: ActiveConfiguration, store: any SchedulerStore, processes: ProcessLedger, passLock: LockFile, trigger: PassTrigger,
        health: ServiceHealth, metrics: SchedulerMetrics, clock: any WallClock = SystemWallClock(), replica: String = RunnerIdentity.current,
        logger: Logger
    ) {
        self.active = active
        self.store = store
        self.processes = processes
        self.passLock = passLock
        self.trigger = trigger
        self.health = health
        self.metrics = metrics
        self.clock = clock
        self.replica = replica
        self.logger = logger
        starts = StartLimiter(clock: clock)
    }

    public func run() async throws {
        await health.loopStarted()
        do {
            try await cancelWhenGracefulShutdown { try await loop() }
        } catch is CancellationError {
            logger.notice("the reconcile loop stopped")
        } catch {
            await health.loopStopped()
            throw error
        }
        await health.loopStopped()
        // Off the roll of a shared store: the other replicas stop counting this one (a database that does not answer
        // holds the shutdown a few seconds at most; the others then drop this replica when its heartbeat is old).
        let (leases, replica) = (store.leases, replica)
        do {
            try await StoreDeadline.cleanup.run { try await leases?.removeReplica(replica) }
        } catch {
            logger.warning("could not leave the roll of replicas: \(error)")
        }
    }

    private func loop() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                while true {
                    try await Task.sleep(for: await active.current.scheduler.tick)
                    trigger.wake(.tick)
                }
            }
            if store.leases != nil {
                group.addTask { try await keepBeating() }
            }
            group.addTask {
                // The units' gauges before the first pass, which may take long: a scrape meanwhile sees every unit.
                do {
                    try await metrics.recordLevels(store: store, configuration: await active.current, now: clock.now(), watchingSince: health.startedAt)
                } catch {
                    logger.warning("could not read the units' state for the metrics: \(error)")
                }
                try await passRetryingFailures(PassTrigger.Work(full: true))
                while let work = await trigger.next() {
                    try Task.checkCancellation()
                    try await passRetryingFailures(work)
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Records this replica's heartbeat on a shared store every half minute, passes or not, so a long pass does not
    /// make it look gone.
    private func keepBeating() async throws {
        while true {
            try await Task.sleep(for: .seconds(30))
            await heartbeat(configuration: await active.current)
        }
    }

    private func heartbeat(configuration: SchedulerConfiguration) async {
        guard let leases = store.leases else { return }
        do {
            try await leases.heartbeat(replica: replica, configFingerprint: configuration.fingerprint)
        } catch {
            logger.warning("could not record this replica's heartbeat: \(error)")
        }
    }

    /// Runs the passes `work` asks for (the forced sources first, then a full pass), each until it does not fail as a
    /// whole, waiting 1 s, 2 s, 4 s… (at most the tick) between attempts.
    private func passRetryingFailures(_ work: PassTrigger.Work) async throws {
        if !work.forced.isEmpty { try await retryingFailures(.forced(work.forced, .full)) }
        if !work.forcedIncremental.isEmpty { try await retryingFailures(.forced(work.forcedIncremental, .incremental)) }
        if work.full { try await retryingFailures(.full) }
    }

    /// What one pass covers.
    private enum Scope {
        case full
        case forced(Set<String>, DueDecision.Forced)
    }

    private func retryingFailures(_ scope: Scope) async throws {
        while let failures = try await pass(scope) {
            let delay = min(Duration.seconds(1) * (1 << min(failures - 1, 20)), await active.current.scheduler.tick)
            logger.notice("retrying the pass", metadata: ["in": "\(delay)", "failures": "\(failures)"])
            try await Task.sleep(for: delay)
        }
    }

    /// One pass: every source, or the sources operators forced since the last pass. Returns
    /// `nil`, or the number of passes failed in a row when this one failed as a whole.
    private func pass(_ scope: Scope) async throws -> Int? {
        do {
            return try await PassLock.withPass(file: passLock) { try await passHoldingTheLock(scope) }
        } catch let busy as PassLock.Busy {
            logger.notice("pass skipped until the next tick: \(busy)")
            return nil
        }
    }

    private func passHoldingTheLock(_ scope: Scope) async throws -> Int? {
        let configuration = await active.current
        await heartbeat(configuration: configuration)
        var options = ReconcilePass.Options(replica: replica, leaseDuration: configuration.scheduler.leaseDuration)
        options.starts = configuration.scheduler.maxStartsPerMinute.map { (starts, $0) }
        options.concurrency = configuration.scheduler.concurrency
        if case .forced(let sources, let kind) = scope {
            options.force = kind
            options.sources = sources
        } else {
            options.skipsSettledUnits = true
        }
        let pass = ReconcilePass(configuration: configuration, store: store, processes: processes, clock: clock, logger: logger)
        do {
            let result = try await pass.execute(options)
            metrics.record(result.outcomes)
            try await metrics.passFinished(result, store: store, configuration: configuration, at: clock.now(), watchingSince: health.startedAt)
            await health.passFinished(at: clock.now())
            return nil
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // The database failed under the pass (disk full, file removed…): report it, and try again.
            logger.error("the pass failed", metadata: ["error": "\(error)"])
            metrics.passFailed()
            return await health.passFailed("\(error)")
        }
    }
}
