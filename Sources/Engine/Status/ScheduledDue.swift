public import Foundation
import Indexing
public import SchedulerConfig
public import Store

/// When a unit's schedule wants its next success, and whether it is overdue: a unit whose gate is on and whose
/// due instant passed more than `service.overdueGrace` ago without a success. Failures, backoff and a stuck plugin
/// all end here, which is why operators alert on it.
public struct ScheduledDue: Sendable, Hashable {
    /// The last success's next due by the schedule; for a unit that never succeeded, the instant the service
    /// started watching it (`nil` outside the service: then a unit that never succeeded is never overdue).
    public var at: Date?
    public var isOverdue: Bool

    /// `nil` for a unit whose gate is off or whose source is paused: it has nothing to be late for.
    public static func of(
        plan: UnitPlan, state: UnitState?, now: Date, grace: Duration, watchingSince: Date?, paused: Bool = false
    ) -> ScheduledDue? {
        guard plan.gateDecision.isOn, !paused else { return nil }
        let due = state?.lastSuccessAt.map { plan.nextDue(after: $0) } ?? watchingSince
        return ScheduledDue(at: due, isOverdue: due.map { now.timeIntervalSince($0) > grace.seconds } ?? false)
    }
}
