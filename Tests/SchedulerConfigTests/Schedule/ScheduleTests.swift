import Foundation
import HostSupport
import PluginAPI
import SchedulerConfig
import Testing

@Suite("Schedules and durations")
struct ScheduleTests {
    @Test(arguments: [("90s", 90), ("15m", 900), ("36h", 129_600), ("30d", 2_592_000), ("2w", 1_209_600), ("1h30m", 5400)])
    func durationsParse(text: String, seconds: Int64) {
        #expect(DurationText.parse(text) == .seconds(seconds))
    }

    @Test(arguments: ["", "5", "m", "5 minutes", "1.5h", "-3d", "99999999999999d", "3x"])
    func malformedDurationsAreRefused(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test func schedulesParse() throws {
        #expect(try Schedule.parse("monthly") == .monthly)
        #expect(try Schedule.parse("every 36h") == .every(.seconds(129_600)))
        #expect(try Schedule.parse("cron \"0 3 1 * *\"").description == "cron \"0 3 1 * *\"")
        #expect(try Schedule.parse("cron 0 3 1 * *").description == "cron \"0 3 1 * *\"")
        #expect(try Schedule.parse("cron \"@weekly\"").description == "cron \"@weekly\"")
        #expect(try Schedule.parse("monthly on 31") == .monthlyOn(day: 31, at: TimeOfDay(hour: 0, minute: 0)))
        #expect(try Schedule.parse("monthly on 15 at 3:30").description == "monthly on 15 at 03:30")
    }

    @Test(arguments: [
        ("monthly on 0", "a day of the month from 1 to 31"),
        ("monthly on 32", "a day of the month from 1 to 31"),
        ("monthly on last", "a day of the month from 1 to 31"),
        ("monthly on 15 at 25:00", "a time of day as HH:MM"),
        ("monthly on 15 at noon", "a time of day as HH:MM"),
        ("monthly on 15 03:00", "monthly on DAY at HH:MM"),
        ("@daily", "write a cron macro as cron \"@daily\""),
        ("fortnightly", "is not a schedule"),
    ])
    func malformedSchedulesAreRefused(text: String, message: String) {
        #expect(throws: ScheduleError.self) { try Schedule.parse(text) }
        do { _ = try Schedule.parse(text) } catch { #expect(error.reason.contains(message), "\(error.reason)") }
    }

    @Test(arguments: [
        ("0 3 1 * *", "2026-11-22T10:00:00Z", "2026-12-01T03:00:00Z"),
        ("*/15 * * * *", "2026-11-22T10:07:30Z", "2026-11-22T10:15:00Z"),
        ("0 0 * * 1", "2026-11-22T10:00:00Z", "2026-11-23T00:00:00Z"),
        ("30 2 31 * *", "2026-11-22T10:00:00Z", "2026-12-31T02:30:00Z"),
        ("0 12 13 * 5", "2026-11-22T10:00:00Z", "2026-11-27T12:00:00Z"),
        ("0 3 1 * *", "2026-12-01T03:00:00Z", "2027-01-01T03:00:00Z"),
        // A success a second or less past the minute must not skip the next minute boundary.
        ("*/15 * * * *", "2026-11-22T23:59:01Z", "2026-11-23T00:00:00Z"),
        ("* * * * *", "2026-11-22T10:00:01Z", "2026-11-22T10:01:00Z"),
        ("* * * * *", "2026-11-22T10:00:00.250Z", "2026-11-22T10:01:00Z"),
        ("0 0 1 1 *", "2027-12-31T23:59:30Z", "2028-01-01T00:00:00Z"),
        ("0 0 29 2 *", "2028-02-29T00:00:00Z", "2032-02-29T00:00:00Z"),
        // Names, macros, steps from a value, Sunday as 0 or 7.
        ("0 0 1 JAN,jul *", "2026-02-01T00:00:00Z", "2026-07-01T00:00:00Z"),
        ("0 0 1 jan-MAR *", "2026-03-01T00:00:00Z", "2027-01-01T00:00:00Z"),
        ("0 9 * * MON-FRI", "2026-11-20T09:00:00Z", "2026-11-23T09:00:00Z"),
        ("0 9 * * sun", "2026-11-20T09:00:00Z", "2026-11-22T09:00:00Z"),
        ("0 9 * * 7", "2026-11-20T09:00:00Z", "2026-11-22T09:00:00Z"),
        ("0 9 * * 1/2", "2026-11-27T10:00:00Z", "2026-11-30T09:00:00Z"),
        ("0 0 */10 * *", "2026-11-21T00:00:00Z", "2026-12-01T00:00:00Z"),
        ("@yearly", "2026-11-22T10:00:00Z", "2027-01-01T00:00:00Z"),
        ("@annually", "2026-11-22T10:00:00Z", "2027-01-01T00:00:00Z"),
        ("@monthly", "2026-11-22T10:00:00Z", "2026-12-01T00:00:00Z"),
        ("@weekly", "2026-11-22T10:00:00Z", "2026-11-29T00:00:00Z"),
        ("@daily", "2026-11-22T10:00:00Z", "2026-11-23T00:00:00Z"),
        ("@midnight", "2026-11-22T10:00:00Z", "2026-11-23T00:00:00Z"),
        ("@hourly", "2026-11-22T10:00:00Z", "2026-11-22T11:00:00Z"),
        // Both day fields restricted: either matches. One starting with '*': both must.
        ("0 0 13 * 5", "2026-11-22T10:00:00Z", "2026-11-27T00:00:00Z"),
        ("0 0 */2 * 5", "2026-11-22T10:00:00Z", "2026-11-27T00:00:00Z"),
        ("0 0 13 * */7", "2026-11-22T10:00:00Z", "2026-12-13T00:00:00Z"),
    ])
    func cronFindsTheNextInstant(expression: String, after: String, next: String) throws {
        let cron = try CronExpression(expression)
        #expect(cron.next(after: ISO8601.date(from: after)!, in: .utc) == ISO8601.date(from: next))
    }

    @Test(arguments: [
        ("0 0 30 2 *", "never fires: February never has day 30"),
        ("0 0 31 4,6,9,11 *", "never fires: April, June, September, November never have day 31"),
        ("@reboot", "@reboot runs when a machine boots"),
        ("@often", "is not a cron macro"),
        ("0 0 L * *", "L and W (last day, nearest weekday) are Quartz extensions"),
        ("0 0 15W * *", "L and W"),
        ("0 0 ? * MON", "'?' is a Quartz extension"),
        ("0 0 * * 5#3", "the nth weekday of the month (#) is not supported"),
        ("0 0 0 * * *", "not 6; seconds and years are not supported"),
        ("0 0 * *", "has 5 fields"),
        ("61 * * * *", "61 is out of range; values are 0–59"),
        ("0 0 * * 8", "8 is out of range; values are 0–7"),
        ("0 0 5-1 * *", "runs backwards"),
        ("0 0 * * 1/0", "the step after '/'"),
        ("0 0 * * 1,,2", "an empty item"),
        ("0 0 * FOO *", "'FOO' is not a number or a name such as JAN, FEB"),
        ("0 0 * * 99999999999999999999999", "out of range"),
    ])
    func unsupportedOrImpossibleCronIsRefused(expression: String, message: String) {
        do {
            _ = try CronExpression(expression)
            Issue.record("'\(expression)' was accepted")
        } catch {
            #expect(error.reason.contains(message), "\(error.reason)")
        }
    }

    @Test func aLeapDayOnlyExpressionFires() throws {
        // Feb 29 exists: not refused, and found across the non-leap century year 2100.
        let cron = try CronExpression("0 0 29 2 *")
        #expect(cron.next(after: ISO8601.date(from: "2096-03-01T00:00:00Z")!, in: .utc) == ISO8601.date(from: "2104-02-29T00:00:00Z"))
    }

    // MARK: - Time zones

    static let paris = TimeZone(identifier: "Europe/Paris")!

    @Test(arguments: [
        // 03:00 in Paris is 02:00Z in winter, 01:00Z in summer.
        ("0 3 * * *", "2027-01-10T12:00:00Z", "2027-01-11T02:00:00Z"),
        ("0 3 * * *", "2027-07-10T12:00:00Z", "2027-07-11T01:00:00Z"),
        // 2027-03-28: clocks go from 02:00 to 03:00 local; 02:30 does not exist and fires when the gap ends.
        ("30 2 * * *", "2027-03-27T12:00:00Z", "2027-03-28T01:00:00Z"),
        ("30 2 * * *", "2027-03-28T01:00:00Z", "2027-03-29T00:30:00Z"),
        // 2027-10-31: 02:00–02:59 local happens twice; 02:30 fires at its first occurrence only.
        ("30 2 * * *", "2027-10-30T12:00:00Z", "2027-10-31T00:30:00Z"),
        ("30 2 * * *", "2027-10-31T00:30:00Z", "2027-11-01T01:30:00Z"),
        // A minute or hour starting with `*` runs by real time (cronie's wildcard jobs): both occurrences of a
        // repeated hour, none of a skipped one.
        ("*/30 * * * *", "2027-10-31T00:45:00Z", "2027-10-31T01:00:00Z"),
        ("*/15 * * * *", "2027-10-31T00:45:00Z", "2027-10-31T01:00:00Z"),
        ("0 * * * *", "2027-10-31T00:00:00Z", "2027-10-31T01:00:00Z"),
        ("0 * * * *", "2027-10-31T01:00:00Z", "2027-10-31T02:00:00Z"),
        ("@hourly", "2027-10-31T00:30:00Z", "2027-10-31T01:00:00Z"),
        ("30 * * * *", "2027-03-28T00:30:00Z", "2027-03-28T01:30:00Z"),
        ("*/30 * * * *", "2027-03-28T00:30:00Z", "2027-03-28T01:00:00Z"),
        ("15 */2 * * *", "2027-03-28T00:15:00Z", "2027-03-28T02:15:00Z"),
    ])
    func cronReadsWallClockTimeInTheZone(expression: String, after: String, next: String) throws {
        let cron = try CronExpression(expression)
        #expect(cron.next(after: ISO8601.date(from: after)!, in: Self.paris) == ISO8601.date(from: next))
    }

    @Test(arguments: [
        (Schedule.monthly, "2027-01-31T10:00:00Z", "2027-02-28T10:00:00Z"),
        (.monthly, "2027-02-28T10:00:00Z", "2027-03-28T10:00:00Z"),
        (.monthlyOn(day: 31, at: TimeOfDay(hour: 0, minute: 0)), "2027-01-31T10:00:00Z", "2027-02-28T00:00:00Z"),
        (.monthlyOn(day: 31, at: TimeOfDay(hour: 0, minute: 0)), "2027-02-28T00:00:05Z", "2027-03-31T00:00:00Z"),
        (.monthlyOn(day: 31, at: TimeOfDay(hour: 0, minute: 0)), "2027-03-31T00:00:05Z", "2027-04-30T00:00:00Z"),
        (.monthlyOn(day: 31, at: TimeOfDay(hour: 0, minute: 0)), "2027-04-15T08:00:00Z", "2027-04-30T00:00:00Z"),
        (.monthlyOn(day: 29, at: TimeOfDay(hour: 3, minute: 0)), "2028-02-01T00:00:00Z", "2028-02-29T03:00:00Z"),
        (.monthlyOn(day: 1, at: TimeOfDay(hour: 3, minute: 0)), "2027-12-01T03:00:00Z", "2028-01-01T03:00:00Z"),
        (.weekly, "2027-01-04T10:00:00.500Z", "2027-01-11T10:00:00.500Z"),
        (.daily, "2027-01-04T10:00:00Z", "2027-01-05T10:00:00Z"),
        (.hourly, "2027-01-04T10:00:00Z", "2027-01-04T11:00:00Z"),
        (.every(.seconds(129_600)), "2027-01-04T10:00:00Z", "2027-01-05T22:00:00Z"),
    ])
    func calendarSchedulesInUTC(schedule: Schedule, after: String, next: String) {
        #expect(schedule.nextDue(after: ISO8601.date(from: after)!, in: .utc) == ISO8601.date(from: next))
    }

    @Test(arguments: [
        // Daily keeps the wall-clock time: 23 hours across spring forward, 25 across fall back.
        (Schedule.daily, "2027-03-27T09:00:00Z", "2027-03-28T08:00:00Z"),
        (.daily, "2027-10-30T08:00:00Z", "2027-10-31T09:00:00Z"),
        (.weekly, "2027-03-22T09:00:00Z", "2027-03-29T08:00:00Z"),
        // Monthly from 10:00 in winter is 10:00 local in summer.
        (.monthly, "2027-03-15T09:00:00Z", "2027-04-15T08:00:00Z"),
        (.monthlyOn(day: 31, at: TimeOfDay(hour: 3, minute: 0)), "2027-01-15T00:00:00Z", "2027-01-31T02:00:00Z"),
        // Hourly and every are intervals, whatever the zone.
        (.hourly, "2027-03-28T00:30:00Z", "2027-03-28T01:30:00Z"),
        (.every(.seconds(86_400)), "2027-03-27T09:00:00Z", "2027-03-28T09:00:00Z"),
        // A daily run at 02:30 local lands in the gap on 2027-03-28: the first instant after it.
        (.daily, "2027-03-27T01:30:00Z", "2027-03-28T01:00:00Z"),
    ])
    func calendarSchedulesInAZone(schedule: Schedule, after: String, next: String) {
        #expect(schedule.nextDue(after: ISO8601.date(from: after)!, in: Self.paris) == ISO8601.date(from: next))
    }
}
