import PluginAPI

/// How often a source is reindexed after a success. Calendar schedules are read in the source's time zone
/// (see `nextDue(after:in:)`).
public enum Schedule: Sendable, Hashable, CustomStringConvertible {
    /// The same day of the next calendar month (clamped to its last day), at the same time: drifts to the
    /// 28th after a success on January 31.
    case monthly
    /// Every month on `day` (the month's last day when it is shorter), at a time of day: `monthly on 31 at 03:00`.
    case monthlyOn(day: Int, at: TimeOfDay)
    /// The same time of day seven days later.
    case weekly
    /// The same time of day the next day.
    case daily
    /// One hour after the last success.
    case hourly
    /// A fixed interval after the last success: `every 36h`.
    case every(Duration)
    /// The instants of a cron expression: `cron "0 3 1 * *"`, `cron "@weekly"`.
    case cron(CronExpression)

    static let grammar = "use monthly, \"monthly on 15\", \"monthly on 31 at 03:00\", weekly, daily, hourly, \"every 36h\" or cron \"0 3 * * *\""

    /// Parses a schedule as written in `scheduler.yaml`.
    public static func parse(_ text: String) throws(ScheduleError) -> Schedule {
        switch text {
        case "monthly": return .monthly
        case "weekly": return .weekly
        case "daily": return .daily
        case "hourly": return .hourly
        default: break
        }
        if text.hasPrefix("monthly on ") {
            return try monthlyOn(text.dropFirst("monthly on ".count))
        }
        if text.hasPrefix("every ") {
            guard let duration = DurationText.parse(String(text.dropFirst(6))) else {
                throw ScheduleError("'\(text.prefix(80))': after 'every' write a duration such as 36h or 2d")
            }
            guard duration >= .seconds(60) else { throw ScheduleError("'\(text.prefix(80))': the interval must be at least 1m") }
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
                throw ScheduleError("'\(text.prefix(80))': \(error.reason)")
            }
        }
        if text.hasPrefix("@") {
            throw ScheduleError("'\(text.prefix(80))': write a cron macro as cron \"\(text.prefix(20))\"")
        }
        throw ScheduleError("'\(text.prefix(80))' is not a schedule; \(grammar)")
    }

    /// `DAY` or `DAY at HH:MM`, after `monthly on `.
    private static func monthlyOn(_ text: Substring) throws(ScheduleError) -> Schedule {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard let dayText = parts.first, let day = Int(dayText), (1...31).contains(day) else {
            throw ScheduleError("'monthly on \(text.prefix(40))': after 'monthly on' write a day of the month from 1 to 31, such as monthly on 31")
        }
        switch parts.count {
        case 1: return .monthlyOn(day: day, at: TimeOfDay(hour: 0, minute: 0))
        case 3 where parts[1] == "at":
            guard let time = TimeOfDay(parts[2]) else {
                throw ScheduleError("'monthly on \(text.prefix(40))': after 'at' write a time of day as HH:MM, such as 03:00")
            }
            return .monthlyOn(day: day, at: time)
        default:
            throw ScheduleError("'monthly on \(text.prefix(40))': write monthly on DAY, or monthly on DAY at HH:MM")
        }
    }

    public var description: String {
        switch self {
        case .monthly: "monthly"
        case .monthlyOn(let day, let time): time == TimeOfDay(hour: 0, minute: 0) ? "monthly on \(day)" : "monthly on \(day) at \(time)"
        case .weekly: "weekly"
        case .daily: "daily"
        case .hourly: "hourly"
        case .every(let duration): "every \(DurationText.format(duration))"
        case .cron(let expression): "cron \"\(expression.text)\""
        }
    }
}

/// A wall-clock time of day, to the minute: `03:00`.
public struct TimeOfDay: Sendable, Hashable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int

    public init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// Parses `H:MM` or `HH:MM`, 00:00 to 23:59.
    init?(_ text: Substring) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public var description: String {
        (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
}

/// A schedule that cannot be parsed, and why.
public struct ScheduleError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
