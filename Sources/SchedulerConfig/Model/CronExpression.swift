public import Foundation

/// A five-field cron expression, `minute hour day-of-month month day-of-week`, evaluated in UTC.
///
/// Each field is `*`, a number, a range `a-b`, a step `*/n` or `a-b/n`, or a comma-separated list of these.
/// Day of week is 0–7 (0 and 7 are Sunday). As in cron, when both day fields are restricted, a day
/// matching either one matches.
public struct CronExpression: Sendable, Hashable {
    public let text: String
    let minutes: Set<Int>
    let hours: Set<Int>
    let daysOfMonth: Set<Int>
    let months: Set<Int>
    let daysOfWeek: Set<Int>
    let daysOfMonthRestricted: Bool
    let daysOfWeekRestricted: Bool

    public init(_ text: String) throws(ScheduleError) {
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 5 else {
            throw ScheduleError("a cron expression has 5 fields (minute hour day-of-month month day-of-week), not \(fields.count)")
        }
        self.text = fields.joined(separator: " ")
        minutes = try Self.field(fields[0], "minute", 0...59)
        hours = try Self.field(fields[1], "hour", 0...23)
        daysOfMonth = try Self.field(fields[2], "day-of-month", 1...31)
        months = try Self.field(fields[3], "month", 1...12)
        daysOfWeek = Set(try Self.field(fields[4], "day-of-week", 0...7).map { $0 % 7 })
        daysOfMonthRestricted = fields[2] != "*"
        daysOfWeekRestricted = fields[4] != "*"
    }

    /// The first instant of the expression strictly after `date`, looking up to 5 years ahead.
    public func next(after date: Date) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = calendar.date(bySetting: .second, value: 0, of: date.addingTimeInterval(60)) ?? date
        var day = calendar.startOfDay(for: start)
        for _ in 0..<(366 * 5) {
            let parts = calendar.dateComponents([.day, .month, .weekday], from: day)
            if months.contains(parts.month!), matchesDay(dayOfMonth: parts.day!, weekday: parts.weekday! - 1) {
                for hour in hours.sorted() {
                    for minute in minutes.sorted() {
                        let candidate = day.addingTimeInterval(TimeInterval(hour * 3600 + minute * 60))
                        if candidate >= start { return candidate }
                    }
                }
            }
            day = calendar.date(byAdding: .day, value: 1, to: day)!
        }
        return nil
    }

    private func matchesDay(dayOfMonth: Int, weekday: Int) -> Bool {
        switch (daysOfMonthRestricted, daysOfWeekRestricted) {
        case (true, true): daysOfMonth.contains(dayOfMonth) || daysOfWeek.contains(weekday)
        case (true, false): daysOfMonth.contains(dayOfMonth)
        case (false, true): daysOfWeek.contains(weekday)
        case (false, false): true
        }
    }

    private static func field(_ text: Substring, _ name: String, _ range: ClosedRange<Int>) throws(ScheduleError) -> Set<Int> {
        var values = Set<Int>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { throw ScheduleError("\(name) field '\(text)' has more than one '/'") }
            var step = 1
            if pieces.count == 2 {
                guard let parsed = Int(pieces[1]), parsed > 0 else {
                    throw ScheduleError("\(name) field '\(text)': the step after '/' must be a positive number")
                }
                step = parsed
            }
            let bounds: ClosedRange<Int>
            if pieces[0] == "*" {
                bounds = range
            } else if let dash = pieces[0].firstIndex(of: "-") {
                guard let low = Int(pieces[0][..<dash]), let high = Int(pieces[0][pieces[0].index(after: dash)...]), low <= high else {
                    throw ScheduleError("\(name) field '\(text)': '\(pieces[0])' is not a range such as 1-5")
                }
                bounds = low...high
            } else {
                guard let value = Int(pieces[0]) else {
                    throw ScheduleError("\(name) field '\(text)': '\(pieces[0])' is not a number")
                }
                bounds = value...(pieces.count == 2 ? range.upperBound : value)
            }
            guard range.contains(bounds.lowerBound), range.contains(bounds.upperBound) else {
                throw ScheduleError("\(name) field '\(text)': values must be between \(range.lowerBound) and \(range.upperBound)")
            }
            values.formUnion(stride(from: bounds.lowerBound, through: bounds.upperBound, by: step))
        }
        return values
    }
}
