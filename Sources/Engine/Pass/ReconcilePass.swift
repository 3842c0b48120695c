import Foundation
public import HostSupport
import Indexing
public import Logging
public import PluginAPI
public import SchedulerConfig
public import Store

/// The reconcile pass: for every unit of every source, purge it when its gate is validly off, reindex it when
/// it is due and its source is not paused, and finally sweep expired items. `scheduler run-once` runs it once; the
/// service on every tick.
public struct ReconcilePass: Sendable {
    /// What an operator asks of one pass.
    public struct Options: Sendable {
        /// Run every unit whose gate is on, due or not: a full run, which may delete over `maxDeleteRatio`, or an
        /// incremental one (where the plugin runs them and a state is committed), under the delete guard.
        public var force: DueDecision.Forced?
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
        /// The service's limit on starts a minute, and its count (``StartLimiter``); `nil`: no limit.
        public var starts: (limiter: StartLimiter, perMinute: Int)?
        /// How many units run at once (`service.concurrency`, `run-once --concurrency`), each under its own lease and
        /// writing its own batches; one by default.
        public var concurrency = 1
        /// Decide only the units the store's due index names (``SchedulerStore/unitsToDecide(at:settledUnder:)``) when
        /// the last whole pass settled this configuration and the index was not changed from outside since
        /// (``PassSettlement``): the service's ticks. Otherwise, and by default (`run-once` reports every unit), every
        /// unit is decided; either way, a pass that may settle units does.
        public var skipsSettledUnits = false

        /// Items per batch unless chosen otherwise: 2,000 wrote a first pass 15–20 % faster than 500; when a batch's
        /// words went into FTS5 in one statement, 5,000 wrote it another 8 % faster than 2,000 (BENCHMARKS.md,
        /// 2026-11-28). A run stops at a batch boundary on shutdown and resumes from the last one.
        public static let defaultBatchSize = 5000

        public init(
            force: DueDecision.Forced? = nil, dryRun: Bool = false, sources: Set<String>? = nil, batchSize: Int = Options.defaultBatchSize,
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
    let clock: any WallClock
    let logger: Logger
    let backoff: Backoff
    let random: @Sendable () -> Double

    public init(
        configuration: SchedulerConfiguration, store: any SchedulerStore, processes: ProcessLedger,
        clock: any WallClock, logger: Logger, backoff: Backoff = Backoff(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.configuration = configuration
        self.store = store
        self.processes = processes
        self.clock = clock
        self.logger = logger
        self.backoff = backoff
        self.random = random
    }

    /// Runs the pass; a cancelled task starts no new unit and stops the running ones at their next batch boundary.
    /// Returns the outcome of every unit it decided, in config order.
    public func run(_ options: Options) async throws -> [UnitOutcome] {
        try await execute(options).outcomes
    }

    /// Runs the pass, as ``run(_:)`` does, and tells how many units it left undecided as settled.
    public func execute(_ options: Options) async throws -> PassResult {
        let now = clock.now()
        let everyPlan = configuration.plans(at: now)
        let plans = options.sources.map { sources in everyPlan.filter { sources.contains($0.unit.source) } } ?? everyPlan
        if !options.dryRun {
            for pid in processes.stopLeftovers() {
                logger.warning("stopped a plugin's process group left running by a scheduler that was killed", metadata: ["pid": "\(pid)"])
            }
            for interrupted in try await store.markInterrupted() {
                logger.warning("the last run of \(interrupted.unit) was interrupted before its final commit; its previous success stands")
            }
        }
        // The state table and the domains read once each, whatever the number of units: most units on most ticks
        // have nothing to do, and deciding that must cost next to nothing. Every unit is decided first, then done.
        // A pass over the whole configuration, unforced, settles the units it leaves alone; a tick after a whole pass
        // that settled the same configuration reads and decides only the units the due index names.
        let pauses = try await store.pausedSources()
        let settling = !options.dryRun && options.force == nil && options.sources == nil
        let signature = settling ? PassSignature.of(plans, pauses: pauses) : ""
        let outsideChanges = settling ? try await store.index.outsideChangeCount() : 0
        let settled = settling && options.skipsSettledUnits ? try await store.passSettlement() : nil
        let skipping = settled == PassSettlement(signature: signature, outsideChanges: outsideChanges)
        let states = skipping ? try await store.unitsToDecide(at: now, settledUnder: signature) : try await store.units()
        let deciding = !skipping ? plans : states.isEmpty ? [] : plans.filter { states[$0.unit.key] != nil }
        let holdingItems = try await store.index.domainsHoldingItems(among: deciding.map(\.unit.domain))
        let restorable = deciding.isEmpty ? [:] : try await store.index.restorablePurges()
        let needs = deciding.map { plan in
            UnitNeed.decide(
                plan: plan, state: states[plan.unit.key], domainHasItems: holdingItems.contains(plan.unit.domain),
                restorableUntil: restorable[plan.unit.domain], now: now, force: options.force, paused: pauses[plan.unit.source]
            )
        }
        // Units with nothing to do are reported at once; the others run `concurrency` at a time, each in a child task,
        // so a slow or hung source holds back no other unit. Outcomes come back in config order.
        var outcomes = [UnitOutcome?](repeating: nil, count: needs.count)
        var acting: [Int] = []
        for (index, need) in needs.enumerated() {
            if options.dryRun || !need.changesSomething {
                outcomes[index] = log(need.outcome(dryRun: options.dryRun), asked: options.force != nil)
            } else {
                acting.append(index)
            }
        }
        // Replicas sharing a store start their walks at different units (see FairShare).
        if let leases = store.leases, acting.count > 1 {
            let start = FairShare.offset(of: options.replica, roll: try await leases.replicas(), count: acting.count)
            acting = Array(acting[start...] + acting[..<start])
        }
        try await withThrowingTaskGroup(of: (Int, UnitOutcome).self) { group in
            var waiting = acting[...]
            func startNext() {
                guard !Task.isCancelled, let index = waiting.popFirst() else { return }
                group.addTask {
                    let started = ContinuousClock.now
                    var outcome = try await carryOut(needs[index], startedAt: now, options: options)
                    outcome.duration = ContinuousClock.now - started
                    return (index, outcome)
                }
            }
            for _ in 0..<max(1, options.concurrency) { startNext() }
            while let (index, outcome) = try await group.next() {
                outcomes[index] = log(outcome, asked: options.force != nil)
                startNext()
            }
        }
        if settling, !Task.isCancelled {
            // A unit it had to act on but whose state it did not write (another replica held it, the start limit held it
            // back, a pause came first) keeps a whole pass from settling: the next one decides every unit again.
            let wroteEveryState = acting.allSatisfy { outcomes[$0].map { Self.writesTheState.contains($0.decision) } ?? false }
            try await settle(needs, unplanned: states, plans: plans, signature: signature, whole: skipping || !wroteEveryState ? nil : outsideChanges)
        }
        let decided = outcomes.compactMap { $0 }
        if !options.dryRun, !Task.isCancelled { try await sweep(options) }
        return PassResult(outcomes: decided, decidedPlans: deciding, settledUnits: plans.count - deciding.count)
    }

    /// The decisions of a unit acted on that record its state (and so clear its settlement).
    private static let writesTheState: Set<RunDecision> = [.reindexed, .purged, .restored, .failed, .cancelled, .missed]

    /// Settles every unit of `needs` with nothing to do whose settlement changed, and every state read whose unit the
    /// configuration no longer declares (until a configuration declares it again), under `signature`; for a pass that
    /// decided and carried out every unit (`whole`: the index's outside changes it began at), records the pass's
    /// settlement.
    private func settle(
        _ needs: [UnitNeed], unplanned states: [String: UnitState], plans: [UnitPlan], signature: String, whole outsideChanges: Int64?
    ) async throws {
        func changed(_ state: UnitState, _ until: Date?) -> Bool { state.settledUntil != until || state.settledUnder != signature }
        var settlements = needs.compactMap { need -> UnitSettlement? in
            guard !need.changesSomething, let state = need.state, changed(state, need.settledUntil) else { return nil }
            return UnitSettlement(state, until: need.settledUntil)
        }
        if states.count > needs.lazy.filter({ $0.state != nil }).count {
            let planned = Set(plans.lazy.map(\.unit.key))
            settlements += states.values.filter { !planned.contains($0.unit) && changed($0, .distantFuture) }.map { UnitSettlement($0, until: .distantFuture) }
        }
        let completing = outsideChanges.map { PassSettlement(signature: signature, outsideChanges: $0) }
        guard !settlements.isEmpty || completing != nil else { return }
        try await store.settle(settlements, under: signature, completing: completing)
    }

    /// Logs `outcome`, and returns it. A unit with nothing to do (most units on most ticks) logs at debug: a fleet's
    /// tick is not 100,000 lines, and its metadata is made only when the line is written. A run an operator `asked`
    /// for that is not done (no state to go on from, a paused source) says why at notice.
    private func log(_ outcome: UnitOutcome, asked: Bool) -> UnitOutcome {
        let level: Logger.Level = switch outcome.decision {
        case .failed: .error
        // A purge takes a domain out of search: an operator should see it whatever the log level.
        case .purged: .warning
        case .restored: .notice
        case .notDue, .paused: asked ? .notice : .debug
        default: .info
        }
        logger.log(level: level, "\(outcome.decision.rawValue)", metadata: outcome.logMetadata)
        return outcome
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

    /// Carries out what `need` asks. A dry run, or a unit with nothing to do (most units on most ticks), is reported
    /// as decided. With leases, the work is done under the unit's lease, after deciding again from the state read
    /// under it: another replica may have run the unit since the pass decided.
    private func carryOut(_ need: UnitNeed, startedAt: Date, options: Options) async throws -> UnitOutcome {
        guard !options.dryRun, need.changesSomething else { return need.outcome(dryRun: options.dryRun) }
        if case .reindex = need.action, options.force == nil, let starts = options.starts, !(await starts.limiter.admit(limit: starts.perMinute)) {
            return skipped(need, reason: "service.maxStartsPerMinute \(starts.perMinute) reached: it starts at a later pass")
        }
        guard let leases = store.leases else {
            // A pause made since the pass began holds the units it has not started yet.
            if case .reindex = need.action, let paused = try await store.pausedSources()[need.plan.unit.source] {
                return need.held(by: paused).outcome(dryRun: false)
            }
            return try await perform(need, startedAt: startedAt, options: options, store: store)
        }
        let unit = need.plan.unit
        let work = LeasedWork(leases: leases, holder: options.replica, duration: options.leaseDuration, logger: logger.with(unit: unit.key))
        do {
            let outcome = try await work.run(Lease.unitName(unit.key)) { fenced in
                let state = try await fenced.unit(unit.key)
                let hasItems = try await fenced.index.domainsHoldingItems(among: [unit.domain]).contains(unit.domain)
                let restorableUntil = try await fenced.index.restorablePurges()[unit.domain]
                let paused = try await fenced.pausedSources()[unit.source]
                let fresh = UnitNeed.decide(
                    plan: need.plan, state: state, domainHasItems: hasItems, restorableUntil: restorableUntil, now: clock.now(), force: options.force,
                    paused: paused
                )
                guard fresh.changesSomething else { return fresh.outcome(dryRun: false) }
                return try await perform(fresh, startedAt: startedAt, options: options, store: fenced)
            }
            return outcome ?? skipped(need, reason: "another replica holds the unit's lease: it is running or purging it")
        } catch let lost as LeaseLost {
            return skipped(need, reason: "\(lost); the replica holding it now finishes the unit")
        }
    }

    private func skipped(_ need: UnitNeed, reason: String) -> UnitOutcome {
        var outcome = need.outcome(dryRun: false)
        outcome.decision = .skipped
        outcome.reason = reason
        outcome.nextDue = nil
        return outcome
    }

    /// Purges the unit's domain, restorably until `until` when given, and records it in the history.
    private func purge(_ need: UnitNeed, restorableUntil until: Date?, startedAt: Date, store: any SchedulerStore) async throws -> UnitOutcome {
        var outcome = need.outcome(dryRun: false)
        let purged = try await store.purge(domain: need.plan.unit.domain, restorableUntil: until)
        outcome.deleted = purged.deleted
        outcome.decision = .purged
        if let kept = purged.restorableUntil {
            outcome.reason += "; restorable until \(kept.iso8601Text) (purgeGrace): turning the gate on again brings its items back without a run"
        } else {
            outcome.lastSuccess = nil
        }
        try await store.append(historyLine(outcome, startedAt: startedAt))
        return outcome
    }

    /// Undoes the restorable purge of the unit's domain, and records it in the history; skipped when its grace ended
    /// meanwhile. An interrupted run of the unit starts over rather than resume: its checkpoint predates the restore.
    private func restore(_ need: UnitNeed, startedAt: Date, store: any SchedulerStore) async throws -> UnitOutcome {
        let plan = need.plan
        guard let restored = try await store.restorePurge(domain: plan.unit.domain, endingCheckpoints: [UnitReindex.batchName(unit: plan.unit.key)]) else {
            return skipped(need, reason: "the purge's grace ended as it was restored: the unit is reindexed by the next pass")
        }
        var outcome = need.outcome(dryRun: false)
        outcome.decision = .restored
        outcome.reason += " (\(restored) items)"
        outcome.nextDue = need.state?.lastSuccessAt.map { plan.nextDue(after: $0) }
        try await store.append(historyLine(outcome, startedAt: startedAt))
        return outcome
    }

    /// Purges or reindexes the unit as `need` says, writing through `store` (fenced by the unit's lease when there
    /// is one), and records the run.
    private func perform(_ need: UnitNeed, startedAt: Date, options: Options, store: any SchedulerStore) async throws -> UnitOutcome {
        var outcome = need.outcome(dryRun: false)
        let plan = need.plan
        switch need.action {
        case .nothing:
            return outcome
        case .purge(let until):
            return try await purge(need, restorableUntil: until, startedAt: startedAt, store: store)
        case .restore:
            return try await restore(need, startedAt: startedAt, store: store)
        case .recordMissed(_, let next):
            let known = need.state ?? UnitState(unit: plan.unit.key, source: plan.unit.source, domain: plan.unit.domain)
            outcome.decision = .missed
            outcome.error = need.reason
            try await store.recordAttemptEnd(
                known, result: .missed, error: need.reason, failures: known.failures, retryAt: next, history: historyLine(outcome, startedAt: startedAt)
            )
            return outcome
        case .reindex(let forced, let mode):
            var known = need.state ?? UnitState(unit: plan.unit.key, source: plan.unit.source, domain: plan.unit.domain)
            known.domain = plan.unit.domain
            // Every ending commits its line in the history with the unit's state: no crash leaves one without the other.
            let run = UnitReindex(
                plan: plan, unit: known, configuration: configuration, store: store, processes: processes,
                clock: clock, logger: logger.with(unit: plan.unit.key), batchSize: options.batchSize, force: forced, mode: mode,
                history: historyLine(outcome, startedAt: startedAt, forced: forced)
            )
            do {
                let result = try await run.run()
                outcome.mode = result.mode
                outcome.decision = .reindexed
                outcome.indexed = result.indexed
                outcome.unchanged = result.unchanged
                outcome.deleted = result.deleted
                outcome.rejected = result.rejected
                // An incremental run leaves the last-indexed date to the full runs; the next due is the earlier schedule's.
                let lastFull = result.mode == .incremental ? known.lastSuccessAt : result.finishedAt
                outcome.lastSuccess = lastFull
                outcome.nextDue = ([lastFull.map { plan.nextDue(after: $0) }] + [plan.nextIncremental(after: result.finishedAt)])
                    .compactMap { $0 }.min()
            } catch is CancellationError {
                throw CancellationError()
            } catch let cancelled as UnitReindex.Cancelled {
                // No success and no failure counted: the unit waits for its next scheduled instant, unless forced.
                let next = plan.nextInstant(after: clock.now())
                let message = "cancelled by \(cancelled.by): its plugin was stopped; the batches committed before stay, nothing was deleted and the "
                    + "last-indexed date did not move; next run at \(ISO8601.string(from: next)) unless forced"
                outcome.record(cancelled.progress, decision: .cancelled, error: message)
                outcome.nextDue = next
                try await store.recordAttemptEnd(
                    known, result: .cancelled, error: message, failures: known.failures, retryAt: next,
                    history: historyLine(outcome, startedAt: startedAt, forced: forced)
                )
            } catch let failure as UnitReindex.Failure {
                let failures = known.failures + 1
                let retryAt = clock.now().addingTimeInterval(TimeInterval(backoff.delay(afterFailures: failures, random: random()).components.seconds))
                outcome.record(failure.progress, decision: .failed, error: failure.message)
                outcome.nextDue = retryAt
                try await store.recordFailure(
                    known, error: failure.message, failures: failures, retryAt: retryAt, history: historyLine(outcome, startedAt: startedAt, forced: forced)
                )
            }
            return outcome
        }
    }

    /// The line of the history that tells `outcome`, finished now.
    private func historyLine(_ outcome: UnitOutcome, startedAt: Date, forced: Bool = false) -> RunRecord {
        var line = RunRecord(
            unit: outcome.unit, source: outcome.source, domain: outcome.domain, startedAt: startedAt, finishedAt: clock.now(),
            decision: outcome.decision, reason: outcome.reason, indexed: outcome.indexed, deleted: outcome.deleted,
            rejected: outcome.rejected, error: outcome.error, forced: forced, mode: outcome.mode
        )
        line.rejections = outcome.rejections
        return line
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
