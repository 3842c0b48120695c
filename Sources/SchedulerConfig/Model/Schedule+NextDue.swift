public import Foundation

extension Schedule {
    /// When a unit last successful at `lastSuccess` is due again.
    ///
    /// `monthly` is the same day and time of the next calendar month, clamped to its last day (Jan 31 gives
    /// Feb 28); `cron` is its first instant after the last success, so a run after several missed instants
    /// covers them all at once. Calendar arithmetic is in UTC.
    public func nextDue(after lastSuccess: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        switch self {
        case .monthly: return calendar.date(byAdding: .month, value: 1, to: lastSuccess)!
        case .weekly: return lastSuccess.addingTimeInterval(7 * 86_400)
        case .daily: return lastSuccess.addingTimeInterval(86_400)
        case .hourly: return lastSuccess.addingTimeInterval(3600)
        case .every(let interval): return lastSuccess.addingTimeInterval(TimeInterval(interval.components.seconds))
        case .cron(let expression): return expression.next(after: lastSuccess) ?? .distantFuture
        }
    }
}
