import Foundation
import Testing

/// A schedule as an operator writes it, and the instants it makes a unit due: the first run succeeds at
/// `instants[0]`; each following instant is when the previous success makes the unit due again.
struct ScheduleCase: CustomTestStringConvertible, Sendable {
    var schedule: String
    var extraLines = ""
    var instants: [String]
    var testDescription: String { "\(schedule) \(extraLines)" }
}

@Suite("Schedules through scheduler run-once")
struct ScheduleCommandTests {
    static let cases: [ScheduleCase] = [
        // A success seconds past the minute does not skip the next fire time.
        ScheduleCase(schedule: #"cron "*/15 * * * *""#, instants: ["2027-12-31T23:59:01Z", "2028-01-01T00:00:00Z", "2028-01-01T00:15:00Z"]),
        ScheduleCase(schedule: #"cron "0 0 1 1 *""#, instants: ["2027-12-31T23:59:30Z", "2028-01-01T00:00:00Z", "2029-01-01T00:00:00Z"]),
        // Names, macros, steps from a value, Sunday as 7.
        ScheduleCase(schedule: #"cron "0 9 * * MON-FRI""#, instants: ["2026-11-27T09:00:00Z", "2026-11-30T09:00:00Z", "2026-12-01T09:00:00Z"]),
        ScheduleCase(schedule: #"cron "0 0 1 JAN,jul *""#, instants: ["2027-01-01T00:00:00Z", "2027-07-01T00:00:00Z", "2028-01-01T00:00:00Z"]),
        ScheduleCase(schedule: #"cron "@weekly""#, instants: ["2026-11-23T10:00:00Z", "2026-11-29T00:00:00Z", "2026-12-06T00:00:00Z"]),
        ScheduleCase(schedule: #"cron "0 9 * * 1/2""#, instants: ["2026-11-27T10:00:00Z", "2026-11-30T09:00:00Z"]),
        ScheduleCase(schedule: #"cron "0 9 * * 7""#, instants: ["2026-11-20T09:00:00Z", "2026-11-22T09:00:00Z"]),
        // 03:00 in Paris: 02:00Z in winter, 01:00Z in summer; the zone from the source or from defaults.
        ScheduleCase(schedule: #"cron "0 3 * * *""#, extraLines: "    timeZone: Europe/Paris",
                     instants: ["2027-03-26T12:00:00Z", "2027-03-27T02:00:00Z", "2027-03-28T01:00:00Z", "2027-03-29T01:00:00Z"]),
        ScheduleCase(schedule: #"cron "0 3 * * *""#, extraLines: "defaults: { timeZone: Europe/Paris }",
                     instants: ["2027-10-29T12:00:00Z", "2027-10-30T01:00:00Z", "2027-10-31T02:00:00Z"]),
        // 02:30 does not exist on 2027-03-28 in Paris: it fires when the gap ends. On 2027-10-31 it happens twice: once.
        ScheduleCase(schedule: #"cron "30 2 * * *""#, extraLines: "    timeZone: Europe/Paris",
                     instants: ["2027-03-27T12:00:00Z", "2027-03-28T01:00:00Z", "2027-03-29T00:30:00Z"]),
        ScheduleCase(schedule: #"cron "30 2 * * *""#, extraLines: "    timeZone: Europe/Paris",
                     instants: ["2027-10-30T12:00:00Z", "2027-10-31T00:30:00Z", "2027-11-01T01:30:00Z"]),
        // Daily keeps the wall-clock time across a change of daylight-saving time.
        ScheduleCase(schedule: "daily", extraLines: "    timeZone: Europe/Paris",
                     instants: ["2027-03-27T09:00:00Z", "2027-03-28T08:00:00Z"]),
        // Monthly drifts from the 31st; monthly on 31 comes back to it.
        ScheduleCase(schedule: "monthly", instants: ["2027-01-31T10:00:00Z", "2027-02-28T10:00:00Z", "2027-03-28T10:00:00Z"]),
        ScheduleCase(schedule: #""monthly on 31""#,
                     instants: ["2027-01-31T10:00:00Z", "2027-02-28T00:00:00Z", "2027-03-31T00:00:00Z", "2027-04-30T00:00:00Z"]),
        ScheduleCase(schedule: #""monthly on 31 at 03:00""#, extraLines: "    timeZone: Europe/Paris",
                     instants: ["2027-03-01T00:00:00Z", "2027-03-31T01:00:00Z", "2027-04-30T01:00:00Z"]),
    ]

    @Test(arguments: cases)
    func theUnitIsDueExactlyWhenItsScheduleSays(_ schedule: ScheduleCase) async throws {
        // Items outlive the months the test jumps across, so the domain never looks wiped.
        let setup = try SourceWorkspace(schedule: schedule.schedule, expiration: "1000d", extraLines: schedule.extraLines)
        try setup.setFeed("a b")
        for (index, instant) in schedule.instants.enumerated() {
            let date = try #require(ISO8601DateFormatter().date(from: instant))
            if index > 0 {
                let before = try await runOnce(setup, at: date.addingTimeInterval(-1))
                #expect(before["decision"] as? String == "not-due", "one second before \(instant): \(before)")
            }
            let unit = try await runOnce(setup, at: date)
            #expect(unit["decision"] as? String == "reindexed", "at \(instant): \(unit)")
            #expect(unit["lastSuccess"] as? String == instant)
            if index + 1 < schedule.instants.count {
                #expect(unit["nextDue"] as? String == schedule.instants[index + 1], "after a success at \(instant)")
            }
        }
    }

    @Test func statusAddsTheLocalTimeToTheUTCInstantOfAZonedSchedule() async throws {
        let setup = try SourceWorkspace(schedule: #"cron "0 3 * * *""#, expiration: "1000d", extraLines: "    timeZone: Europe/Paris")
        try setup.setFeed("a")
        _ = try await runOnce(setup, at: try #require(ISO8601DateFormatter().date(from: "2027-01-10T12:00:00Z")))
        let text = try await setup.run(["status"])
        #expect(text.stdout.contains("next due 2027-01-11T02:00:00Z, 2027-01-11 03:00 Europe/Paris"), "\(text.stdout)")
        #expect(try await setup.status()["timeZone"] as? String == "Europe/Paris")
        #expect(try await setup.status()["nextDue"] as? String == "2027-01-11T02:00:00Z", "JSON stays in UTC")
    }

    @Test func aUnitIsOverdueOnceItsDueInstantIsLongerAgoThanTheGrace() async throws {
        let setup = try SourceWorkspace(schedule: "daily", expiration: "1000d")
        try setup.editConfig(replacing: "service: { tick: 1h, listen: 127.0.0.1:0 }", with: "service: { tick: 1h, listen: 127.0.0.1:0, overdueGrace: 6h }")
        try setup.setFeed("a")
        // Succeeded 31 hours ago: due 7 hours ago, past the 6-hour grace.
        let success = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 31 * 3600).rounded(.down))
        _ = try await runOnce(setup, at: success)
        let unit = try await setup.status()
        #expect(unit["overdue"] as? Bool == true, "\(unit)")
        #expect(unit["scheduledDue"] as? String == ISO8601DateFormatter().string(from: success.addingTimeInterval(86_400)))
        #expect(try await setup.run(["status"]).stdout.contains("overdue: no success since it was due at"))
        // Succeeded 2 hours ago: due in 22 hours, not overdue.
        _ = try await runOnce(setup, at: Date().addingTimeInterval(-2 * 3600))
        #expect(try await setup.status()["overdue"] as? Bool == false)
        // A gate turned off: nothing to be late for.
        try setup.setGate(on: false)
        #expect(try await setup.status()["overdue"] == nil)
    }

    func runOnce(_ setup: SourceWorkspace, at date: Date) async throws -> [String: Any] {
        let outcome = try await setup.run(["run-once", "--json", "--at", ISO8601DateFormatter().string(from: date)])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        return try #require((object?["units"] as? [[String: Any]])?.first, "\(outcome.stdout)")
    }

    /// Every zone and link of the system's tz database (598 in Debian's tzdata 2025b), each the zone of its own
    /// source in one config: ICU's list alone refused 155 of them (`Asia/Kolkata`, `Etc/UTC`, `US/Eastern`, `CET`).
    @Test func everyNameOfTheSystemsZoneDatabaseIsAccepted() async throws {
        let database = try String(contentsOfFile: "/usr/share/zoneinfo/tzdata.zi", encoding: .utf8)
        let names = database.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            return fields.first == "Z" ? fields.dropFirst().first.map(String.init) : fields.first == "L" ? fields.dropFirst(2).first.map(String.init) : nil
        }
        #expect(names.count > 500, "tzdata.zi lists \(names.count) names")
        for required in ["Asia/Kolkata", "Etc/UTC", "US/Eastern", "CET", "EST5EDT", "Europe/Paris", "UTC"] { #expect(names.contains(required)) }
        let setup = try SourceWorkspace(schedule: "daily")
        let sources = names.enumerated().map { index, name in
            "  zone\(index): { plugin: command, domain: com.test.zone\(index), gate: docs_gate, schedule: daily, timeZone: \"\(name)\", options: { command: [./feed.sh] } }"
        }
        try setup.editConfig(replacing: "sources:\n", with: "sources:\n" + sources.joined(separator: "\n") + "\n")
        let outcome = try await setup.run(["validate"])
        #expect(outcome.status == 0, "\(outcome.stderr.prefix(2_000))")
    }

    @Test(arguments: [
        (#"cron "0 0 30 2 *""#, "", "scheduler.yaml:8:15: source 'docs': schedule 'cron \"0 0 30 2 *\"': '0 0 30 2 *' never fires: February never has day 30"),
        (#"cron "0 0 31 4,6,9,11 *""#, "", "never fires: April, June, September, November never have day 31"),
        (#"cron "@reboot""#, "", "scheduler.yaml:8:15: source 'docs': schedule 'cron \"@reboot\"': @reboot runs when a machine boots"),
        (#"cron "0 0 L * *""#, "", "L and W (last day, nearest weekday) are Quartz extensions that are not supported"),
        (#"cron "0 0 0 * * *""#, "", "seconds and years are not supported"),
        ("daily", "    timeZone: Europe/Pariss", "scheduler.yaml:11:15: source 'docs': unknown time zone 'Europe/Pariss' (did you mean 'Europe/Paris'?)"),
        ("daily", "defaults: { timeZone: CEST }", "scheduler.yaml:11:23: defaults: unknown time zone 'CEST'"),
    ])
    func aScheduleThatCannotWorkIsRefusedWithItsLocation(schedule: String, extraLines: String, message: String) async throws {
        let setup = try SourceWorkspace(schedule: schedule, extraLines: extraLines)
        let outcome = try await setup.run(["validate"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        let runOnce = try await setup.run(["run-once"])
        #expect(runOnce.status == 2, "nothing runs on a config that does not validate")
    }
}
