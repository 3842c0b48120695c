public import SchedulerConfig
public import Foundation
import Indexing
public import PluginAPI
public import Store

/// Whether a unit whose gate is on must be reindexed now, how, and why.
public struct DueDecision: Sendable, Hashable {
    public var isDue: Bool
    /// The kind of run when due.
    public var mode: SyncMode
    public var reason: String
    /// When the unit is next due (a full run by its schedule, or an incremental one by its own), if it has succeeded before.
    public var nextDue: Date?
    /// The due instant the pass reached later than the source's `startingDeadline`: the run is skipped as missed, and
    /// the unit waits for `nextDue`.
    public var missed: Date?

    /// A run the operator asks for.
    public enum Forced: Sendable, Hashable {
        /// A full run.
        case full
        /// An incremental run, when the plugin runs them and a state is committed.
        case incremental
    }

    /// Due when forced; otherwise not before the backoff deadline of a failure; then due when its last run was
    /// interrupted (a full run taken up again when the plugin can resume), when it never succeeded, when its settings
    /// changed, when its domain is empty though a success is recorded (the index was wiped or replaced), when the
    /// schedule's period has passed since the last full success; then, with an `incremental` schedule and a state
    /// committed, an incremental run when its period has passed since the last success of either kind.
    public static func decide(plan: UnitPlan, state: UnitState?, domainHasItems: Bool, now: Date, force: Forced?) -> DueDecision {
        let facts = Facts(plan: plan, state: state, domainHasItems: domainHasItems)
        let (nextFull, lastRun, nextIncremental, nextDue) = (facts.nextFull, facts.lastRun, facts.nextIncremental, facts.nextDue)
        if let force { return forced(force, plan: plan, facts: facts) }
        if let retryAt = state?.retryAt, now < retryAt {
            let reason = state?.lastResult == .cancelled ? "the last run was cancelled: waiting for the next scheduled instant, \(retryAt.iso8601Text)"
                : state?.lastResult == .missed ? "the last run due was missed (startingDeadline): waiting for the next instant, \(retryAt.iso8601Text)"
                : "backing off after \(state?.failures ?? 0) failure(s) until \(retryAt.iso8601Text)"
            return DueDecision(isDue: false, mode: .full, reason: reason, nextDue: retryAt)
        }
        if state?.lastResult == .interrupted { return interrupted(plan: plan, state: state, facts: facts) }
        /// A scheduled run the pass reached more than `startingDeadline` after its due instant: skipped, until `next`.
        /// The due instant is the schedule's, or, after a run skipped or cancelled, the instant it waited for; a retry
        /// after a failure is not held to it.
        func missed(_ scheduled: Date, _ next: Date) -> DueDecision? {
            guard let deadline = plan.settings.startingDeadline, (state?.failures ?? 0) == 0 else { return nil }
            let waitedFor = [.missed, .cancelled].contains(state?.lastResult) ? state?.retryAt : nil
            let due = max(scheduled, waitedFor ?? scheduled)
            guard now.timeIntervalSince(due) > deadline.seconds else { return nil }
            var decision = DueDecision(
                isDue: false, mode: .full,
                reason: "the run due at \(due.iso8601Text) could not start within startingDeadline \(DurationText.format(deadline)): skipped, next at \(next.iso8601Text)",
                nextDue: next
            )
            decision.missed = due
            return decision
        }
        guard let state, let lastSuccess = state.lastSuccessAt, let nextFull else {
            return DueDecision(isDue: true, mode: .full, reason: "never succeeded", nextDue: nil)
        }
        if state.fingerprint != plan.fingerprint {
            return DueDecision(isDue: true, mode: .full, reason: "settings changed since the last success", nextDue: nextDue)
        }
        if !domainHasItems {
            return DueDecision(isDue: true, mode: .full, reason: "the domain is empty though a success is recorded (index wiped or replaced)", nextDue: nextDue)
        }
        if now >= nextFull {
            if let missed = missed(nextFull, plan.nextInstant(after: now)) { return missed }
            return DueDecision(isDue: true, mode: .full, reason: "\(plan.settings.schedule) schedule: due since \(nextFull.iso8601Text) (last success \(lastSuccess.iso8601Text))", nextDue: nextDue)
        }
        if let nextIncremental, let schedule = plan.settings.incremental, now >= nextIncremental {
            if let missed = missed(nextIncremental, min(nextFull, plan.nextInstant(after: now, of: schedule))) { return missed }
            return DueDecision(
                isDue: true, mode: .incremental,
                reason: "incremental \(schedule) schedule: due since \(nextIncremental.iso8601Text) (last run \(lastRun.map(\.iso8601Text) ?? "none"))", nextDue: nextDue
            )
        }
        return DueDecision(isDue: false, mode: .full, reason: "not due before \(nextDue!.iso8601Text) (\(plan.settings.schedule)\(plan.settings.incremental.map { ", incremental \($0)" } ?? ""))", nextDue: nextDue)
    }

    /// What the last success and the schedule say of a unit, whatever else is decided.
    private struct Facts {
        let nextFull: Date?
        /// The last success, full or incremental.
        let lastRun: Date?
        /// Whether an incremental run can go on from a committed state.
        let canIncrement: Bool
        let nextIncremental: Date?
        let nextDue: Date?
        /// What only a full run mends: neither an incremental run nor a resumed one may stand for it.
        let needsFull: String?

        init(plan: UnitPlan, state: UnitState?, domainHasItems: Bool) {
            nextFull = state?.lastSuccessAt.map { plan.nextDue(after: $0) }
            lastRun = [state?.lastSuccessAt, state?.lastIncrementalAt].compactMap { $0 }.max()
            canIncrement = plan.sync.contains(.incremental) && state?.lastSuccessAt != nil && state?.syncStateAt != nil
            nextIncremental = canIncrement ? lastRun.flatMap { plan.nextIncremental(after: $0) } : nil
            nextDue = [nextFull, nextIncremental].compactMap { $0 }.min()
            needsFull = if state?.lastSuccessAt == nil { "never succeeded" }
                else if state?.fingerprint != plan.fingerprint { "settings changed since the last success" }
                else if !domainHasItems { "the domain is empty though a success is recorded (index wiped or replaced)" }
                else { nil }
        }
    }

    /// A run an operator asked for: a full one always; an incremental one when the plugin and the state allow it.
    private static func forced(_ force: Forced, plan: UnitPlan, facts: Facts) -> DueDecision {
        let nextDue = facts.nextDue
        guard force == .incremental else { return DueDecision(isDue: true, mode: .full, reason: "forced", nextDue: nextDue) }
        guard plan.sync.contains(.incremental) else {
            return DueDecision(isDue: false, mode: .incremental, reason: "an incremental run was asked, but plugin '\(plan.plugin)' runs full syncs only", nextDue: nextDue)
        }
        guard facts.canIncrement else {
            return DueDecision(isDue: false, mode: .incremental, reason: "an incremental run was asked, but no full run has committed a state to go on from yet", nextDue: nextDue)
        }
        if let needsFull = facts.needsFull {
            return DueDecision(isDue: false, mode: .incremental, reason: "an incremental run was asked, but a full run is needed: \(needsFull)", nextDue: nextDue)
        }
        return DueDecision(isDue: true, mode: .incremental, reason: "forced incremental", nextDue: nextDue)
    }

    /// A unit whose last run was interrupted: a full run when only one mends it, else the interrupted kind again
    /// (a full run resumed from its last checkpoint when the plugin can, ``UnitReindex``).
    private static func interrupted(plan: UnitPlan, state: UnitState?, facts: Facts) -> DueDecision {
        let (interrupted, nextDue) = (state?.runMode ?? .full, facts.nextDue)
        if let needsFull = facts.needsFull, state?.lastSuccessAt != nil {
            return DueDecision(isDue: true, mode: .full, reason: "the last run was interrupted before its final commit, and \(needsFull)", nextDue: nextDue)
        }
        if interrupted == .incremental, facts.canIncrement {
            return DueDecision(isDue: true, mode: .incremental, reason: "the last incremental run was interrupted before its final commit", nextDue: nextDue)
        }
        let resumes = interrupted != .incremental && plan.sync.contains(.resume)
        return DueDecision(isDue: true, mode: resumes ? .resume : .full, reason: "the last run was interrupted before its final commit", nextDue: nextDue)
    }
}

extension Date {
    /// The instant as the reports print it.
    var iso8601Text: String { ISO8601.string(from: self) }
}
