public import Foundation
import PluginAPI

/// A five-field cron expression, `minute hour day-of-month month day-of-week`, with the syntax and meaning of
/// Vixie cron (cronie) and Kubernetes CronJob.
///
/// Fields take numbers, names (`JAN`–`DEC`, `SUN`–`SAT`), ranges, steps and lists (see `CronField`); day of
/// week is 0–7 with 0 and 7 both Sunday. When both day fields are restricted (neither starts with `*`), a day
/// matching either one matches. The macros `@yearly` (`@annually`), `@monthly`, `@weekly`, `@daily`
/// (`@midnight`) and `@hourly` stand for their usual expressions. An expression that can never fire is refused.
public struct CronExpression: Sendable, Hashable {
    /// The expression as written (fields separated by one space, or the macro).
    public let text: String
    let minutes: CronField
    let hours: CronField
    let daysOfMonth: CronField
    let months: CronField
    let daysOfWeek: CronField

    static let macros = [
        "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *", "@weekly": "0 0 * * 0",
        "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
    ]

    public init(_ text: String) throws(ScheduleError) {
        var fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if fields.count == 1, fields[0].hasPrefix("@") {
            let macro = fields[0].lowercased()
            guard let expansion = Self.macros[macro] else {
                if macro == "@reboot" {
                    throw ScheduleError("@reboot runs when a machine boots, which no reindex schedule can mean; use daily, or a schedule such as cron \"@daily\"")
                }
                throw ScheduleError("'\(fields[0].prefix(40))' is not a cron macro; use @yearly, @monthly, @weekly, @daily or @hourly")
            }
            self.text = macro
            fields = expansion.split(separator: " ")
        } else {
            guard fields.count == 5 else {
                throw ScheduleError("a cron expression has 5 fields (minute hour day-of-month month day-of-week), not \(fields.count)"
                    + (fields.count == 6 || fields.count == 7 ? "; seconds and years are not supported" : ""))
            }
            self.text = fields.joined(separator: " ")
        }
        minutes = try CronField(fields[0], .minute)
        hours = try CronField(fields[1], .hour)
        daysOfMonth = try CronField(fields[2], .dayOfMonth)
        months = try CronField(fields[3], .month)
        daysOfWeek = try CronField(fields[4], .dayOfWeek)
        if let reason = neverFires { throw ScheduleError("'\(self.text)' never fires: \(reason)") }
    }

    /// Why the expression can never fire, if it cannot: days of the month that none of its months has.
    /// (A day of the week always comes round, and every date falls on every weekday within 400 years.)
    private var neverFires: String? {
        guard daysOfMonth.isRestricted, !daysOfWeek.isRestricted else { return nil }
        let longest = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let possible = months.values.contains { month in daysOfMonth.values.contains { $0 <= longest[month - 1] } }
        guard !possible else { return nil }
        let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        let monthNames = months.values.map { names[$0 - 1] }
        return "\(monthNames.joined(separator: ", ")) never \(monthNames.count == 1 ? "has" : "have") day \(daysOfMonth.values.map(String.init).joined(separator: ", "))"
    }

    /// Whether the expression runs by real time, as cronie runs a job whose minute or hour field starts with `*`
    /// (`*/15 * * * *`, `30 * * * *`, `@hourly`): across a daylight-saving change it fires at every instant whose
    /// wall-clock time matches, twice in a repeated hour and never for a skipped one. Other expressions keep their
    /// wall-clock times (see ``next(after:in:)``).
    public var runsByRealTime: Bool { !minutes.isRestricted || !hours.isRestricted }

    /// The first instant of the expression strictly after `date`, reading its fields as wall-clock time in
    /// `zone`; `nil` only for an expression that never fires.
    ///
    /// Across a daylight-saving change the rules are cronie's. An expression that ``runsByRealTime`` fires at each
    /// instant whose wall-clock time matches: in a repeated hour, at both occurrences; in a skipped one, not at all.
    /// Any other (a fixed time such as `30 2 * * *`) fires for a wall-clock time the zone skips at the first instant
    /// after the gap, and for one it repeats once, at its first occurrence.
    public func next(after date: Date, in zone: TimeZone) -> Date? {
        guard runsByRealTime else { return nextWallClockTime(after: date, in: zone) }
        // Between two changes of the zone's offset, wall-clock time runs with real time: the first match in the
        // offset that holds, if it comes before the next change, else the first in the next offset.
        var segmentStart = date
        var after = date
        while true {
            let change = zone.nextDaylightSavingTimeTransition(after: segmentStart)
            guard let fixed = TimeZone(secondsFromGMT: zone.secondsFromGMT(for: segmentStart)),
                  let candidate = nextWallClockTime(after: after, in: fixed) else { return nil }
            guard let change, candidate >= change else { return candidate }
            segmentStart = change
            after = change.addingTimeInterval(-0.001)
        }
    }

    /// The first instant strictly after `date` whose wall-clock time in `zone` matches, walking wall-clock time:
    /// a skipped time fires at the first instant after the gap, a repeated one at its first occurrence.
    private func nextWallClockTime(after date: Date, in zone: TimeZone) -> Date? {
        let start = zone.civilTime(at: date)
        let hourList = hours.values, minuteList = minutes.values
        var day = start.daysSinceEpoch
        // Every pattern of the Gregorian calendar repeats within 400 years.
        let end = day + 146_097 + 366
        while day <= end {
            let (year, month, dayOfMonth) = CivilDateTime.date(fromDays: day)
            guard months.contains(month) else {
                day = CivilDateTime.days(year: month == 12 ? year + 1 : year, month: month % 12 + 1, day: 1)
                continue
            }
            let isFirstDay = day == start.daysSinceEpoch
            if matchesDay(dayOfMonth: dayOfMonth, weekday: (day + 4).floorModulo(7)) {
                for hour in hourList where !isFirstDay || hour >= start.hour {
                    for minute in minuteList where !isFirstDay || hour * 60 + minute >= start.hour * 60 + start.minute {
                        let instant = zone.instant(of: CivilDateTime(year: year, month: month, day: dayOfMonth, hour: hour, minute: minute))
                        if instant > date { return instant }
                    }
                }
            }
            day += 1
        }
        return nil
    }

    private func matchesDay(dayOfMonth: Int, weekday: Int) -> Bool {
        switch (daysOfMonth.isRestricted, daysOfWeek.isRestricted) {
        case (true, true): daysOfMonth.contains(dayOfMonth) || daysOfWeek.contains(weekday)
        default: daysOfMonth.contains(dayOfMonth) && daysOfWeek.contains(weekday)
        }
    }
}
