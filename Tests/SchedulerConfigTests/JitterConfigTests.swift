import Foundation
import PluginAPI
import SchedulerConfig
import Testing

/// A source's `jitter`: each unit's own offset, stable and spread over the jitter, never as long as the schedule's
/// period.
@Suite("Jitter in the config")
struct JitterConfigTests {
    static func folder(schedule: String, jitter: String, partitions: Int = 2) throws -> ConfigFolder {
        let list = (1...partitions).map { "p\($0)" }.joined(separator: ", ")
        return try ConfigFolder(scheduler: ConfigFolder.scheduler
            .replacingOccurrences(of: "    schedule: monthly\n", with: "    schedule: \(schedule)\n    jitter: \(jitter)\n")
            .replacingOccurrences(of: "partitions: [us, fr]", with: "partitions: [\(list)]"), experiments: nil)
    }

    @Test func eachUnitHasItsOwnOffsetSpreadOverTheJitterAndTheSameOnEveryLoad() throws {
        let folder = try Self.folder(schedule: "'cron \"0 3 * * *\"'", jitter: "30m", partitions: 200)
        let offsets = try folder.load().plans(at: Date()).filter { $0.unit.source == "categories" }.map(\.jitter)
        #expect(offsets.count == 200)
        #expect(offsets.allSatisfy { $0 >= .zero && $0 < .seconds(1800) })
        #expect(offsets.min()! < .seconds(180) && offsets.max()! > .seconds(1620), "spread over the whole jitter")
        #expect(Set(offsets).count > 150, "units do not share offsets")
        #expect(try folder.load().plans(at: Date().addingTimeInterval(86_400)).filter { $0.unit.source == "categories" }.map(\.jitter) == offsets)
        let plan = try #require(try folder.load().plans(at: Date()).first { $0.unit.key == "categories/p1" })
        let success = ISO8601.date(from: "2026-03-10T03:00:00Z")!
        #expect(plan.nextDue(after: success.addingTimeInterval(plan.jitter.seconds)) == ISO8601.date(from: "2026-03-11T03:00:00Z")!.addingTimeInterval(plan.jitter.seconds))
        #expect(plan.nextInstant(after: success) == success.addingTimeInterval(plan.jitter.seconds), "03:00 passed, 03:00 and the offset not yet")
    }

    @Test(arguments: [
        ("hourly", "1h", "jitter 1h is not shorter than the period of its schedule hourly (1h)"),
        ("'cron \"*/15 * * * *\"'", "20m", "period of its schedule cron \"*/15 * * * *\" (15m)"),
        ("daily", "soon", "'soon' is not a duration"),
    ])
    func aJitterAsLongAsThePeriodIsRefused(schedule: String, jitter: String, message: String) throws {
        let problems = try Self.folder(schedule: schedule, jitter: jitter).problems().map(\.description)
        #expect(problems.contains { $0.contains(message) && $0.contains("scheduler.yaml:") }, "\(problems)")
    }
}
