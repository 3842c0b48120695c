import PluginAPI

/// How often a source is reindexed after a success.
public enum Schedule: Sendable, Hashable, CustomStringConvertible {
    /// The same day of the next calendar month (clamped to its last day), at the same time.
    case monthly
    case weekly
    case daily
    case hourly
    /// A fixed interval after the last success: `every 36h`.
    case every(Duration)
    /// The instants of a cron expression (UTC): `cron "0 3 1 * *"`.
    case cron(CronExpression)

    /// Parses `monthly`, `weekly`, `daily`, `hourly`, `every DURATION` or `cron "M H DOM MON DOW"`.
    public static func parse(_ text: String) throws(ScheduleError) -> Schedule {
        switch text {
        case "monthly": return .monthly
        case "weekly": return .weekly
        case "daily": return .daily
        case "hourly": return .hourly
        default: break
        }
        if text.hasPrefix("every ") {
            guard let duration = DurationText.parse(String(text.dropFirst(6))) else {
                throw ScheduleError("'\(text)': after 'every' write a duration such as 36h or 2d")
            }
            guard duration >= .seconds(60) else { throw ScheduleError("'\(text)': the interval must be at least 1m") }
            return .every(duration)
        }
        if text.hasPrefix("cron ") {
            var expression = text.dropFirst(5).trimmingPrefix(" ")
            if expression.hasPrefix("\""), expression.hasSuffix("\""), expression.count >= 2 {
                expression = expression.dropFirst().dropLast()
            }
            do {
                return .cron(try CronExpression(String(expression)))
            } catch {
                throw ScheduleError("'\(text)': \(error.reason)")
            }
        }
        throw ScheduleError("'\(text.prefix(80))' is not a schedule; use monthly, weekly, daily, hourly, \"every 36h\" or cron \"0 3 1 * *\"")
    }

    public var description: String {
        switch self {
        case .monthly: "monthly"
        case .weekly: "weekly"
        case .daily: "daily"
        case .hourly: "hourly"
        case .every(let duration): "every \(DurationText.format(duration))"
        case .cron(let expression): "cron \"\(expression.text)\""
        }
    }
}

/// A schedule that cannot be parsed, and why.
public struct ScheduleError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
