import Foundation
import FuzzSupport
#if canImport(Glibc)
import Glibc
#endif

/// A cron expression as the oracle knows it: the text the scheduler parses, and the values each field
/// allows, computed while the text was generated (never by parsing it back).
struct OracleExpression: CustomStringConvertible {
    let text: String
    /// Bit n set when value n is allowed (minute, hour, day of month, month 1–12, weekday 0–6 with Sunday 0).
    let minutes: UInt64, hours: UInt64, daysOfMonth: UInt64, months: UInt64, daysOfWeek: UInt64
    /// Vixie cron: a day field starting with `*` does not restrict days when the other one does.
    let dayOfMonthStar: Bool, dayOfWeekStar: Bool
    /// cronie: a job whose minute or hour field starts with `*` is a "wildcard" job, run by real time across
    /// daylight-saving changes.
    let wildcard: Bool

    init(text: String, minutes: Set<Int>, hours: Set<Int>, daysOfMonth: Set<Int>, months: Set<Int>, daysOfWeek: Set<Int>) {
        func table(_ values: Set<Int>) -> UInt64 { values.reduce(0) { $0 | 1 << UInt64($1) } }
        let fields = text.split(separator: " ")
        self.text = text
        (self.minutes, self.hours, self.daysOfMonth) = (table(minutes), table(hours), table(daysOfMonth))
        (self.months, self.daysOfWeek) = (table(months), table(daysOfWeek))
        dayOfMonthStar = fields[2].hasPrefix("*")
        dayOfWeekStar = fields[4].hasPrefix("*")
        wildcard = fields[0].hasPrefix("*") || fields[1].hasPrefix("*")
    }

    var description: String { text }

    /// The fields read on a broken-down wall-clock time: Vixie semantics, day fields OR-ed when both restricted.
    func matches(_ time: tm) -> Bool {
        Self.has(minutes, time.tm_min) && Self.has(hours, time.tm_hour) && matchesDay(time)
    }

    func matchesDay(_ time: tm) -> Bool {
        guard Self.has(months, time.tm_mon + 1) else { return false }
        let dom = Self.has(daysOfMonth, time.tm_mday), dow = Self.has(daysOfWeek, time.tm_wday)
        return dayOfMonthStar || dayOfWeekStar ? dom && dow : dom || dow
    }

    private static func has(_ bits: UInt64, _ value: Int32) -> Bool { bits & (1 << UInt64(value)) != 0 }
}

/// The reference answer to "when does this expression next fire?", by walking minutes.
///
/// Independent of the scheduler's code: wall-clock fields come from the C library's `gmtime_r`, offsets from
/// the zone database, and the daylight-saving rules are cronie's, stated on the walk itself. A wildcard job
/// (minute or hour starting with `*`) fires at every minute whose wall-clock time matches, in a repeated hour
/// too. Any other fires when its wall-clock time matches and has not been shown before (a repeated hour fires
/// once), and at the first minute after the clocks jump forward when any wall-clock minute they skipped matches.
enum CronOracle {
    /// The first firing minute strictly after `date` and at most `limit` seconds later, or `nil`.
    static func next(_ expression: OracleExpression, after date: Date, in zone: TimeZone, limit: Int) -> Date? {
        let after = Int(date.timeIntervalSince1970.rounded(.down))
        var t = after - after.floorModulo60 + 60
        if zone.identifier == TimeZone.utc.identifier {
            return nextUTC(expression, from: t, until: after + limit)
        }
        var previousOffset = offset(zone, t - 60)
        while t <= after + limit {
            let currentOffset = offset(zone, t)
            if fires(expression, at: t, offset: currentOffset, previousOffset: previousOffset, in: zone) {
                return Date(timeIntervalSince1970: TimeInterval(t))
            }
            previousOffset = currentOffset
            t += 60
        }
        return nil
    }

    /// Walks UTC minutes from `start`, skipping a whole day when its date fields do not match.
    private static func nextUTC(_ expression: OracleExpression, from start: Int, until end: Int) -> Date? {
        var t = start
        while t <= end {
            let time = brokenDown(t)
            if !expression.matchesDay(time) {
                t += 86_400 - (t % 86_400 + 86_400) % 86_400
                continue
            }
            if expression.matches(time) { return Date(timeIntervalSince1970: TimeInterval(t)) }
            t += 60
        }
        return nil
    }

    /// Whether minute `t` fires, given the zone's offsets at `t` and a minute before.
    static func fires(_ expression: OracleExpression, at t: Int, offset current: Int, previousOffset: Int, in zone: TimeZone) -> Bool {
        let local = t + current, previous = (t - 60) + previousOffset
        if expression.wildcard { return expression.matches(brokenDown(local)) }
        if local - previous > 60 {
            // The clocks jumped forward just now: the skipped wall-clock minutes fire here, once.
            return stride(from: previous + 60, through: local, by: 60).contains { expression.matches(brokenDown($0)) }
        }
        guard expression.matches(brokenDown(local)) else { return false }
        // A wall-clock time shown before (clocks fell back) does not fire again.
        let earlier = offset(zone, t - 86_400)
        if earlier != current {
            let first = local - earlier
            if first < t, offset(zone, first) == earlier { return false }
        }
        return true
    }

    private static func offset(_ zone: TimeZone, _ t: Int) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))
    }

    static func brokenDown(_ seconds: Int) -> tm {
        var time = tm()
        var value = time_t(seconds)
        gmtime_r(&value, &time)
        return time
    }
}

extension Int {
    fileprivate var floorModulo60: Int { ((self % 60) + 60) % 60 }
}

/// Random cron expressions in the syntax people write, each with its value sets.
struct CronExpressionGenerator {
    static let monthNames = ["JAN", "feb", "Mar", "APR", "may", "JUN", "jul", "AUG", "sep", "OCT", "nov", "DEC"]
    static let dayNames = ["SUN", "mon", "Tue", "WED", "thu", "FRI", "sat"]

    var random: SeededGenerator

    /// `sparse` restricts more fields; `everyDay` leaves the three day fields `*`.
    mutating func expression(sparse: Bool = false, everyDay: Bool = false) -> OracleExpression {
        let minute = field(0...59, starChance: sparse ? 0.1 : 0.3)
        let hour = field(0...23, starChance: sparse ? 0.2 : 0.5)
        let dom = everyDay ? (text: "*", values: Set(1...31)) : field(1...31, starChance: sparse ? 0.4 : 0.7)
        let month = everyDay ? (text: "*", values: Set(1...12)) : field(1...12, starChance: sparse ? 0.4 : 0.75, names: Self.monthNames, nameOffset: 1)
        let dow = everyDay ? (text: "*", values: Set(0...6)) : field(0...6, starChance: sparse ? 0.5 : 0.7, names: Self.dayNames, nameOffset: 0, sundaySeven: true)
        return OracleExpression(
            text: [minute.text, hour.text, dom.text, month.text, dow.text].joined(separator: " "),
            minutes: minute.values, hours: hour.values, daysOfMonth: dom.values, months: month.values,
            daysOfWeek: Set(dow.values.map { $0 % 7 })
        )
    }

    private mutating func field(
        _ range: ClosedRange<Int>, starChance: Double, names: [String] = [], nameOffset: Int = 0, sundaySeven: Bool = false
    ) -> (text: String, values: Set<Int>) {
        if Double.random(in: 0..<1, using: &random) < starChance {
            if Bool.random(using: &random) { return ("*", Set(range)) }
            let step = Int.random(in: 2...max(2, range.count / 2), using: &random)
            return ("*/\(step)", Set(stride(from: range.lowerBound, through: range.upperBound, by: step)))
        }
        var texts: [String] = [], values = Set<Int>()
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let item = self.item(range, names: names, nameOffset: nameOffset, sundaySeven: sundaySeven)
            texts.append(item.text)
            values.formUnion(item.values)
        }
        return (texts.joined(separator: ","), values)
    }

    private mutating func item(
        _ range: ClosedRange<Int>, names: [String], nameOffset: Int, sundaySeven: Bool
    ) -> (text: String, values: Set<Int>) {
        func written(_ value: Int, sundayAsSeven: Bool = false) -> String {
            if sundayAsSeven, sundaySeven, value == 0, Bool.random(using: &random) { return "7" }
            if !names.isEmpty, Bool.random(using: &random) { return names[value - nameOffset] }
            return String(value)
        }
        let low = Int.random(in: range, using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return (written(low, sundayAsSeven: true), [low])
        case 1:
            let high = Int.random(in: low...range.upperBound, using: &random)
            return ("\(written(low))-\(written(high))", Set(low...high))
        case 2:
            let high = Int.random(in: low...range.upperBound, using: &random), step = Int.random(in: 1...5, using: &random)
            return ("\(written(low))-\(written(high))/\(step)", Set(stride(from: low, through: high, by: step)))
        default:
            // `a/n`: from a to the end of the field (day of week ends on Saturday).
            let step = Int.random(in: 1...7, using: &random)
            return ("\(written(low))/\(step)", Set(stride(from: low, through: range.upperBound, by: step)))
        }
    }
}

extension TimeZone {
    static let utc = TimeZone(identifier: "UTC")!
}
