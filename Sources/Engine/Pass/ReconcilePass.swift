public import SchedulerConfig
import Foundation
import Indexing
public import Logging
public import PluginAPI
public import Store

/// The reconcile pass: for every unit of every source, purge it when its gate is validly off, reindex it when
/// it is due, and finally sweep expired items. `scheduler run-once` runs it once; the service on every tick.
public struct ReconcilePass: Sendable {
    /// What an operator asks of one pass.
    public struct Options: Sendable {
        /// Run every unit whose gate is on, due or not, and allow deletions over `maxDeleteRatio`.
        public var force = false
        /// Decide and report only; touch nothing.
        public var dryRun = false
        /// Only these sources; all when `nil`.
        public var sources: Set<String>?
        /// Items per committed batch (at most ``IndexBatch/maxUpsertBytes`` of them).
        public var batchSize = Options.defaultBatchSize
        /// This replica, as the leases of a shared store name it.
        public var replica: String
        /// How long a unit's lease lasts unless renewed (a third of it between renewals): a replica killed mid-run
        /// holds the unit that long before another one redoes it.
        public var leaseDuration: Duration

        /// Items per batch unless chosen otherwise: 2,000 wrote a first pass 15–20 % faster than 500, and 5,000
        /// no faster (BENCHMARKS.md); a run stops at a batch boundary on shutdown and resumes from the last one.
        public static let defaultBatchSize = 2000

        public init(
            force: Bool = false, dryRun: Bool = false, sources: Set<String>? = nil, batchSize: Int = Options.defaultBatchSize,
            replica: String = RunnerIdentity.current, leaseDuration: Duration = StoreDefaults.leaseDuration
        ) {
            self.force = force
            self.dryRun = dryRun
            self.sources = sources
            self.batchSize = batchSize
            self.replica = replica
            self.leaseDuration = leaseDuration
        }
    }

    let configuration: SchedulerConfiguration
    let store: any SchedulerStore
    let processes: ProcessLedger
    let registry: PluginRegistry
    let clock: any WallClock
    let logger: Logger
    let backoff: Backoff
    let random: @Sendable () -> Double

    public init(
        configuration: SchedulerConfiguration, store: any SchedulerStore, processes: ProcessLedger, registry: PluginRegistry,
        clock: any WallClock, logger: Logger, backoff: Backoff = Backoff(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.configuration = configuration
        self.store = store
        self.processes = processes
        self.registry = registry
        self.clock = clock
        self.logger = logger
        self.backoff = backoff
        self.random = random
    }

    /// Runs the pass; a cancelled task starts no new unit and stops a running one at its next batch boundary.
    public func run(_ options: Options) async throws -> [UnitOutcome] {
        let now = clock.now()
        let plans = configuration.plans(at: now).filter { options.sources?.contains($0.unit.source) ?? true }
        if !options.dryRun {
            for pid in processes.stopLeftovers() {
                logger.warning("stopped a plugin's process group left running by a scheduler that was killed", metadata: ["pid": "\(pid)"])
            }
            for interrupted in try await store.markInterrupted() {
                logger.warning("the last run of \(interrupted.unit) was interrupted before its final commit; its previous success stands")
            }
        }
        // The state table and the domains read once each, whatever the number of units: most units on most ticks
        // have nothing to do, and deciding that must cost next to nothing.
        let states = try await store.units()
        let holdingItems = try await store.index.domainsHoldingItems(among: plans.map(\.unit.domain))
        var outcomes: [UnitOutcome] = []
        for plan in plans {
            guard !Task.isCancelled else { break }
            let started = ContinuousClock.now
            let hasItems = holdingItems.contains(plan.unit.domain)
            var outcome = try await reconcile(plan, state: states[plan.unit.key], domainHasItems: hasItems, now: now, options: options)
            outcome.duration = ContinuousClock.now - started
            var metadata: Logger.Metadata = [
                "unit": "\(outcome.unit)", "reason": "\(outcome.reason)", "indexed": "\(outcome.indexed)",
                "deleted": "\(outcome.deleted)", "rejected": "\(outcome.rejected)",
            ]
            if let error = outcome.error { metadata["error"] = "\(error)" }
            logger.log(level: outcome.decision == .failed ? .error : .info, "\(outcome.decision.rawValue)", metadata: metadata)
            outcomes.append(outcome)
        }
        if !options.dryRun, !Task.isCancelled { try await sweep(options) }
        return outcomes
    }

    /// Sweeps expired items; with leases, once across the replicas that reach it together.
    private func sweep(_ options: Options) async throws {
        guard let leases = store.leases else {
            try await store.index.sweepExpired()
            return
        }
        let work = LeasedWork(leases: leases, holder: options.replica, duration: options.leaseDuration, logger: logger)
        _ = try await work.run(Lease.sweepName) { fenced in try await fenced.index.sweepExpired() }
    }

    /// Reconciles one unit. With leases, a unit with nothing to do is decided without one (most units on most ticks);
    /// one to purge or reindex is done under its lease, deciding again from the state read under it (another replica
    /// may have run the unit since the pass began).
    private func reconcile(_ plan: UnitPlan, state unitState: UnitState?, domainHasItems: Bool, now: Date, options: Options) async throws -> UnitOutcome {
        guard !options.dryRun, let leases = store.leases else {
            return try await reconcile(plan, state: unitState, domainHasItems: domainHasItems, now: now, options: options, store: store)
        }
        var preview = options
        preview.dryRun = true
        let decided = try await reconcile(plan, state: unitState, domainHasItems: domainHasItems, now: now, options: preview, store: store)
        guard decided.decision == .wouldPurge || decided.decision == .wouldReindex else { return decided }
        let work = LeasedWork(leases: leases, holder: options.replica, duration: options.leaseDuration, logger: logger.with(unit: plan.unit.key))
        do {
            let outcome = try await work.run(Lease.unitName(plan.unit.key)) { fenced in
                let fresh = try await fenced.units()[plan.unit.key]
                let hasItems = try await fenced.index.domainsHoldingItems(among: [plan.unit.domain]).contains(plan.unit.domain)
                return try await reconcile(plan, state: fresh, domainHasItems: hasItems, now: clock.now(), options: options, store: fenced)
            }
            return outcome ?? skipped(plan, state: unitState, reason: "another replica holds the unit's lease: it is running or purging it")
        } catch let lost as LeaseLost {
            return skipped(plan, state: unitState, reason: "\(lost); the replica holding it now finishes the unit")
        }
    }

    private func skipped(_ plan: UnitPlan, state: UnitState?, reason: String) -> UnitOutcome {
        UnitOutcome(
            source: plan.unit.source, unit: plan.unit.key, domain: plan.unit.domain, gate: plan.gateDecision.state,
            variant: plan.variant?.variant, decision: .skipped, reason: reason, lastSuccess: state?.lastSuccessAt
        )
    }

    /// Decides what `plan` needs and does it, writing through `store` (fenced by the unit's lease when there is one).
    private func reconcile(
        _ plan: UnitPlan, state unitState: UnitState?, domainHasItems: Bool, now: Date, options: Options, store: any SchedulerStore
    ) async throws -> UnitOutcome {
        var outcome = UnitOutcome(
            source: plan.unit.source, unit: plan.unit.key, domain: plan.unit.domain, gate: plan.gateDecision.state,
            variant: plan.variant?.variant, decision: .skipped, reason: plan.gateDecision.reason, lastSuccess: unitState?.lastSuccessAt
        )
        guard plan.gateDecision.isOn else {
            guard domainHasItems || unitState?.lastSuccessAt != nil else {
                outcome.reason += "; nothing indexed"
                return outcome
            }
            guard !options.dryRun else {
                outcome.decision = .wouldPurge
                return outcome
            }
            outcome.deleted = try await store.purge(domain: plan.unit.domain)
            outcome.decision = .purged
            outcome.lastSuccess = nil
            try await record(outcome, startedAt: now, in: store)
            return outcome
        }
        // An interrupted forced run is redone forced: its operator accepted what it deletes.
        let force = options.force || (unitState?.lastResult == .interrupted && unitState?.forcedRun == true)
        let due = DueDecision.decide(plan: plan, state: unitState, domainHasItems: domainHasItems, now: now, force: force)
        outcome.reason = force && !options.force ? "the last run, forced, was interrupted before its final commit: redone forced" : due.reason
        outcome.nextDue = due.nextDue
        guard due.isDue else {
            outcome.decision = .notDue
            return outcome
        }
        guard !options.dryRun else {
            outcome.decision = .wouldReindex
            return outcome
        }
        var known = unitState ?? UnitState(unit: plan.unit.key, source: plan.unit.source, domain: plan.unit.domain)
        known.domain = plan.unit.domain
        let run = UnitReindex(
            plan: plan, unit: known, configuration: configuration, store: store, processes: processes, registry: registry,
            clock: clock, logger: logger.with(unit: plan.unit.key), batchSize: options.batchSize, force: force
        )
        do {
            let result = try await run.run()
            outcome.decision = .reindexed
            outcome.indexed = result.indexed
            outcome.deleted = result.deleted
            outcome.rejected = result.rejected
            outcome.lastSuccess = result.finishedAt
            outcome.nextDue = plan.settings.nextDue(after: result.finishedAt)
        } catch is CancellationError {
            throw CancellationError()
        } catch let failure as UnitReindex.Failure {
            let failures = known.failures + 1
            let retryAt = clock.now().addingTimeInterval(TimeInterval(backoff.delay(afterFailures: failures, random: random()).components.seconds))
            try await store.recordFailure(known, error: failure.message, failures: failures, retryAt: retryAt)
            outcome.decision = .failed
            outcome.error = failure.message
            outcome.indexed = failure.indexed
            outcome.rejected = failure.rejected
            outcome.nextDue = retryAt
        }
        try await record(outcome, startedAt: now, forced: force, in: store)
        return outcome
    }

    private func record(_ outcome: UnitOutcome, startedAt: Date, forced: Bool = false, in store: any SchedulerStore) async throws {
        try await store.append(RunRecord(
            unit: outcome.unit, source: outcome.source, domain: outcome.domain, startedAt: startedAt, finishedAt: clock.now(),
            decision: outcome.decision, reason: outcome.reason, indexed: outcome.indexed, deleted: outcome.deleted,
            rejected: outcome.rejected, error: outcome.error, forced: forced
        ))
    }
}

extension Logger {
    /// This logger with `unit` in its metadata.
    func with(unit: String) -> Logger {
        var logger = self
        logger[metadataKey: "unit"] = "\(unit)"
        return logger
    }
}
