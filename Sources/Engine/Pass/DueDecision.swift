public import SchedulerConfig
public import Foundation
import PluginAPI
public import Store

/// Whether a unit whose gate is on must be reindexed now, and why.
public struct DueDecision: Sendable, Hashable {
    public var isDue: Bool
    public var reason: String
    /// When the unit is next due by its schedule, if it has succeeded before.
    public var nextDue: Date?

    /// Due when forced; otherwise not before the backoff deadline of a failure; then due when its last run was
    /// interrupted, when it never succeeded, when its settings changed, when its domain is empty though a
    /// success is recorded (the index was wiped or replaced), or when the schedule's period has passed since
    /// the last success.
    public static func decide(plan: UnitPlan, state: UnitState?, domainHasItems: Bool, now: Date, force: Bool) -> DueDecision {
        let nextDue = state?.lastSuccessAt.map { plan.settings.nextDue(after: $0) }
        if force { return DueDecision(isDue: true, reason: "forced", nextDue: nextDue) }
        if let retryAt = state?.retryAt, now < retryAt {
            return DueDecision(isDue: false, reason: "backing off after \(state?.failures ?? 0) failure(s) until \(retryAt.iso8601Text)", nextDue: retryAt)
        }
        if state?.lastResult == .interrupted {
            return DueDecision(isDue: true, reason: "the last run was interrupted before its final commit", nextDue: nextDue)
        }
        guard let state, let lastSuccess = state.lastSuccessAt, let nextDue else {
            return DueDecision(isDue: true, reason: "never succeeded", nextDue: nil)
        }
        if state.fingerprint != plan.fingerprint {
            return DueDecision(isDue: true, reason: "settings changed since the last success", nextDue: nextDue)
        }
        if !domainHasItems {
            return DueDecision(isDue: true, reason: "the domain is empty though a success is recorded (index wiped or replaced)", nextDue: nextDue)
        }
        if now >= nextDue {
            return DueDecision(isDue: true, reason: "\(plan.settings.schedule) schedule: due since \(nextDue.iso8601Text) (last success \(lastSuccess.iso8601Text))", nextDue: nextDue)
        }
        return DueDecision(isDue: false, reason: "not due before \(nextDue.iso8601Text) (\(plan.settings.schedule))", nextDue: nextDue)
    }
}

extension Date {
    /// The instant as the reports print it.
    var iso8601Text: String { ISO8601.string(from: self) }
}
