import Engine
import Foundation
import Store

/// What a unit's page (`/units/{unit}`) shows, as text ready for the template: the unit's state and why, its
/// lease on a shared store, the trend of its runs' durations, its runs, and, for a signed-in operator, its actions.
struct UnitPageModel {
    struct LeaseRow {
        var holder: String
        var expires: Moment
    }

    var generatedAt: String
    var environment: String
    var unit: UnitRow
    var variantReason: String?
    var lastAttempt: Moment?
    var backoffUntil: Moment?
    /// `since … by …` while the source is paused.
    var pause: String?
    var lease: LeaseRow?
    /// Whether the store has leases at all (PostgreSQL): the page says "none" rather than nothing.
    var hasLeases: Bool
    var trend: DurationTrend?
    var runs: [RunRow]
    var console: ConsoleView
    /// Whether the source's plugin runs incremental syncs: the console offers one.
    var incremental: Bool
    var notice: String?

    init(
        report: StatusReport, unit status: StatusReport.UnitStatus, environment: String, runs: [RunRecord], leases: [Lease]?,
        console: ConsoleView, incremental: Bool, notice: String?
    ) {
        let now = report.at
        generatedAt = Moment.utc(now)
        self.environment = environment
        unit = UnitRow(status, now: now)
        variantReason = status.variantReason
        lastAttempt = status.lastAttempt.map { Moment($0, now: now) }
        backoffUntil = status.backoffUntil.map { Moment($0, now: now) }
        pause = report.pausedSources.first { $0.source == status.source }.map {
            "since \(Moment.utc($0.pausedAt)) (\(RelativeTime.describe($0.pausedAt, now: now))), by \($0.pausedBy)"
        }
        hasLeases = leases != nil
        lease = leases?.first { $0.name == Lease.unitName(status.unit) }.map { LeaseRow(holder: $0.holder, expires: Moment($0.expiresAt, now: now)) }
        trend = DurationTrend(runs: runs)
        self.runs = runs.map { RunRow($0, now: now) }
        self.console = console
        self.incremental = incremental
        self.notice = notice
    }
}
