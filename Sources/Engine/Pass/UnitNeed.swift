public import Foundation
public import PluginAPI
public import SchedulerConfig
public import Store

/// What one unit needs at one instant, and why: decided from the config's plan for the unit and one read of the
/// store's state, before anything is done. The pass decides every unit first, then carries out what they need
/// (under a unit's lease, after deciding again from the state read under it); `status` shows the same decision.
public struct UnitNeed: Sendable {
    /// What is to be done.
    public enum Action: Sendable, Hashable {
        /// Nothing: the gate is on and the unit is not due or its source is paused, the gate is off and nothing is
        /// indexed, or the unit is held (its gate's flag did not resolve).
        case nothing
        /// Purge the unit's domain: its gate is validly off and something is indexed or remembered there. Restorable
        /// until the given instant (the source's `purgeGrace` from now), or final (`nil`: no grace, or the grace of
        /// an earlier restorable purge ended).
        case purge(restorableUntil: Date?)
        /// Undo the restorable purge of the unit's domain: its gate is on again within the purge's grace.
        case restore
        /// Reindex the unit in `mode`; `forced` allows deleting more than `maxDeleteRatio` (an operator's `--force`,
        /// or a forced run that was interrupted, redone forced). A manual incremental run is not forced: only a full
        /// `--force` lifts the delete guard.
        case reindex(forced: Bool, mode: SyncMode)
        /// Record that the run due at `due` was missed (reached later than `startingDeadline`), and wait until `next`.
        case recordMissed(due: Date, next: Date)
    }

    public var plan: UnitPlan
    /// The unit's state as read when deciding (`nil`: never seen).
    public var state: UnitState?
    public var action: Action
    /// Why, in words: the gate's reason when it is off, the due decision's when it is on.
    public var reason: String
    /// When the unit is next due (or may next be tried, while backing off); `nil` while the gate is off or the
    /// source is paused.
    public var nextDue: Date?
    /// Whether the unit's gate is on and its source paused: left alone until it is resumed.
    public var isPaused = false
    /// Until when the purge of its domain, its gate off, can be undone: the pass decides it again then.
    public var restorableUntil: Date?

    /// Decides what `plan`'s unit needs at `now`, given its `state`, whether its domain holds items, until when the
    /// purge of exactly its domain was restorable (``Indexing/SearchIndex/restorablePurges()``) and its source's
    /// pause; `force` is the operator's. A paused source's units are neither run nor forced; a gate turned off still
    /// purges them (what must not be searchable any more goes, paused or not), and one turned on again restores them.
    public static func decide(
        plan: UnitPlan, state: UnitState?, domainHasItems: Bool, restorableUntil: Date? = nil, now: Date, force: DueDecision.Forced?,
        paused: SourcePause? = nil
    ) -> UnitNeed {
        // A gate whose flag did not resolve holds the unit: neither a run nor a purge until it does.
        if plan.gateDecision.state == .unknown {
            return UnitNeed(plan: plan, state: state, action: .nothing, reason: plan.gateDecision.reason, nextDue: nil)
        }
        guard plan.gateDecision.isOn else { return gateOff(plan: plan, state: state, domainHasItems: domainHasItems, restorableUntil: restorableUntil, now: now) }
        if let until = restorableUntil, until > now {
            return UnitNeed(plan: plan, state: state, action: .restore, reason: "the gate is on again within the purge's grace: restored without a run", nextDue: nil)
        }
        if let paused { return UnitNeed(plan: plan, state: state, action: .nothing, reason: "", nextDue: nil).held(by: paused) }
        // An interrupted forced run is redone forced (resumed, when its plugin can): its operator accepted what it deletes.
        // (Not an incremental one: a release before this one recorded those forced too.)
        let redoneForced = force == nil && state?.lastResult == .interrupted && state?.forcedRun == true && state?.runMode != .incremental
        // Only an operator's full `--force` lifts the delete guard: an incremental run they ask for is guarded as a
        // scheduled one is (its deletions come from the plugin, not from the operator).
        let liftsGuard = force == .full || redoneForced
        let due = DueDecision.decide(plan: plan, state: state, domainHasItems: domainHasItems, now: now, force: force)
        let action: Action = if let missed = due.missed, let next = due.nextDue { .recordMissed(due: missed, next: next) }
            else if due.isDue { .reindex(forced: liftsGuard, mode: due.mode) }
            else { .nothing }
        let reason = if redoneForced { "the last run, forced, was interrupted before its final commit: redone forced" }
            else if restorableUntil != nil, due.isDue { "its purge's grace ended before the gate turned on again: reindexed" }
            else { due.reason }
        return UnitNeed(plan: plan, state: state, action: action, reason: reason, nextDue: due.nextDue)
    }

    /// What a unit whose gate is validly off needs: a purge, restorable for the source's `purgeGrace`, when something
    /// is indexed or remembered; nothing while a restorable purge waits out its grace (settled until it ends); a final
    /// purge once it has.
    private static func gateOff(plan: UnitPlan, state: UnitState?, domainHasItems: Bool, restorableUntil: Date?, now: Date) -> UnitNeed {
        let reason = plan.gateDecision.reason
        if let until = restorableUntil {
            guard until <= now else {
                var waiting = UnitNeed(
                    plan: plan, state: state, action: .nothing,
                    reason: reason + "; purged, restorable until \(until.iso8601Text) if the gate turns on again", nextDue: nil
                )
                waiting.restorableUntil = until
                return waiting
            }
            return UnitNeed(plan: plan, state: state, action: .purge(restorableUntil: nil), reason: reason + "; the purge's grace ended: final", nextDue: nil)
        }
        let indexed = domainHasItems || state?.lastSuccessAt != nil
        // Restorable only when there is something to restore: a success remembered over an empty domain (the purge's
        // grace ended and its rows are being reclaimed, or nothing was indexed) is forgotten at once.
        let grace = plan.settings.purgeGrace
        let keptUntil = domainHasItems && grace > .zero ? now.addingTimeInterval(grace.seconds) : nil
        return UnitNeed(
            plan: plan, state: state, action: indexed ? .purge(restorableUntil: keptUntil) : .nothing,
            reason: reason + (indexed ? "" : "; nothing indexed"), nextDue: nil
        )
    }

    /// This need held by `pause`: nothing is done, and the pause says why.
    public func held(by pause: SourcePause) -> UnitNeed {
        var held = self
        held.action = .nothing
        held.reason = pause.reason
        held.nextDue = nil
        held.isPaused = true
        return held
    }

    /// Whether carrying it out writes anything.
    public var changesSomething: Bool { action != .nothing }

    /// Until when the unit needs no decision if neither the pass's signature (``PassSignature``) nor its state
    /// changes: its next due instant while its gate is on; never by time while its gate is off or its source paused (a
    /// change of either changes the signature); `nil`, the next pass, for a held unit or one with something to do.
    public var settledUntil: Date? {
        guard action == .nothing else { return nil }
        if let restorableUntil { return restorableUntil }
        if isPaused || plan.gateDecision.state == .off { return .distantFuture }
        return plan.gateDecision.state == .on ? nextDue : nil
    }

    /// The outcome as decided, before anything is done: what a dry run reports, and where a run's outcome starts.
    public func outcome(dryRun: Bool) -> UnitOutcome {
        let decision: RunDecision = switch action {
        case .nothing: isPaused ? .paused : plan.gateDecision.isOn ? .notDue : .skipped
        case .purge: dryRun ? .wouldPurge : .skipped
        case .restore: dryRun ? .wouldRestore : .skipped
        case .reindex: dryRun ? .wouldReindex : .skipped
        case .recordMissed: .missed
        }
        var outcome = UnitOutcome(
            source: plan.unit.source, unit: plan.unit.key, domain: plan.unit.domain, gate: plan.gateDecision.state,
            variant: plan.variant?.variant, decision: decision, reason: reason, lastSuccess: state?.lastSuccessAt, nextDue: nextDue
        )
        if case .reindex(_, let mode) = action { outcome.mode = mode }
        return outcome
    }
}
