import Foundation
import SchedulerConfig
import Store

extension StatusReport.UnitStatus {
    /// What the configuration says of the unit now: its gate and variant, and, when the gate is on, whether the next
    /// pass would run it, decided by the pass's own code (``UnitNeed``). `paused` and `restorableUntil` are set.
    mutating func describe(_ plan: UnitPlan, state: UnitState?, pause: SourcePause?, now: Date) {
        gate = plan.gateDecision.state
        gateReason = plan.gateDecision.reason
        variant = plan.variant?.variant
        variantReason = plan.variant.map { "experiment \($0.experiment): \($0.reason)" }
        if plan.settings.jitter != nil { jitter = plan.jitter.seconds }
        guard plan.gateDecision.isOn else { return }
        let need = UnitNeed.decide(
            plan: plan, state: state, domainHasItems: items > 0, restorableUntil: restorableUntil, now: now, force: nil, paused: pause
        )
        if case .reindex(_, let mode) = need.action { (due, dueMode) = (true, mode) } else { due = false }
        dueReason = need.reason
        if state?.lastResult == .running {
            // Running is not due: the run going now is the one a pass would start.
            (due, dueMode, dueReason) = (false, nil, "running now")
        }
        nextDue = need.nextDue
        let zone = plan.settings.timeZone
        timeZone = zone.secondsFromGMT() == 0 && zone.nextDaylightSavingTimeTransition == nil ? nil : zone.identifier
    }
}
