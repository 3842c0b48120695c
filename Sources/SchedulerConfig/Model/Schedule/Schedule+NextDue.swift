public import Foundation
import HostSupport
import PluginAPI

extension Schedule {
    /// When a unit whose last success was at `lastSuccess` is due again, with calendar schedules read as
    /// wall-clock time in `zone`.
    ///
    /// - `monthly`: the same day and time of the next calendar month, clamped to its last day (January 31
    ///   gives February 28).
    /// - `monthly on D at T`: the first day D (or the month's last day when shorter) at T after the last success.
    /// - `weekly`, `daily`: the same wall-clock time 7 days or 1 day later (23 or 25 hours across a change of
    ///   daylight-saving time).
    /// - `hourly`, `every D`: that long after the last success, whatever the zone.
    /// - `cron`: the expression's first instant after the last success, so a run after several missed instants
    ///   covers them all at once.
    ///
    /// A wall-clock time the zone skips is read as the first instant after the gap; one it repeats, as its
    /// first occurrence.
    public func nextDue(after lastSuccess: Date, in zone: TimeZone) -> Date {
        switch self {
        case .monthly: return Self.sameWallClockTime(as: lastSuccess, in: zone) { $0.addingMonths(1) }
        case .weekly: return Self.sameWallClockTime(as: lastSuccess, in: zone) { $0.addingDays(7) }
        case .daily: return Self.sameWallClockTime(as: lastSuccess, in: zone) { $0.addingDays(1) }
        case .hourly: return lastSuccess.addingTimeInterval(3600)
        case .every(let interval): return lastSuccess.addingTimeInterval(TimeInterval(interval.components.seconds))
        case .monthlyOn(let day, let time):
            let start = zone.civilTime(at: lastSuccess)
            var month = CivilDateTime(year: start.year, month: start.month, day: 1, hour: time.hour, minute: time.minute)
            while true {
                var candidate = month
                candidate.day = min(day, CivilDateTime.daysIn(month: month.month, year: month.year))
                let instant = zone.instant(of: candidate)
                if instant > lastSuccess { return instant }
                month = month.addingMonths(1)
            }
        case .cron(let expression): return expression.next(after: lastSuccess, in: zone) ?? .distantFuture
        }
    }

    /// `date`'s wall-clock time in `zone`, moved by `move`, as an instant; the fraction of a second is kept
    /// when that wall-clock time exists.
    private static func sameWallClockTime(as date: Date, in zone: TimeZone, _ move: (CivilDateTime) -> CivilDateTime) -> Date {
        let target = move(zone.civilTime(at: date))
        let instant = zone.instant(of: target)
        guard zone.civilTime(at: instant) == target else { return instant }
        return instant.addingTimeInterval(date.timeIntervalSince1970 - date.timeIntervalSince1970.rounded(.down))
    }
}

extension Schedule {
    /// The shortest time between two of the schedule's instants: what a source's `jitter` must stay under. A cron
    /// expression's is measured over its first 200 instants of 2026 in UTC (a daylight-saving change can shorten a
    /// zone's by an hour at most).
    public var shortestPeriod: Duration {
        switch self {
        case .monthly, .monthlyOn: return .seconds(28 * 86_400)
        case .weekly: return .seconds(7 * 86_400)
        case .daily: return .seconds(86_400)
        case .hourly: return .seconds(3600)
        case .every(let interval): return interval
        case .cron(let expression):
            var instant = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
            var shortest = TimeInterval.infinity
            for _ in 0..<200 {
                guard let next = expression.next(after: instant, in: .utc) else { break }
                if instant.timeIntervalSince1970 != 1_767_225_600 { shortest = min(shortest, next.timeIntervalSince(instant)) }
                instant = next
            }
            return shortest.isFinite ? .seconds(Int64(shortest)) : .seconds(366 * 86_400)
        }
    }
}
