import Foundation
import SchedulerConfig
import Testing

/// `missedRuns` and `startingDeadline`, per source and in `defaults`, resolved into one deadline per source.
@Suite("Missed-run policies in the config")
struct MissedRunsConfigTests {
    static func folder(defaults: String = "", source: String = "") throws -> ConfigFolder {
        try ConfigFolder(scheduler: ConfigFolder.scheduler
            .replacingOccurrences(of: "defaults: { expiration: 30d, maxDeleteRatio: 0.5 }", with: "defaults: { expiration: 30d, maxDeleteRatio: 0.5\(defaults) }")
            .replacingOccurrences(of: "    maxDeleteRatio: 0.3\n", with: "    maxDeleteRatio: 0.3\n\(source)"))
    }

    static func deadline(_ folder: ConfigFolder) throws -> Duration? {
        try folder.load().scheduler.sources.first?.settings.startingDeadline
    }

    @Test func aDeadlineComesFromTheSourceThenTheDefaultsThenSkipsTick() throws {
        #expect(try Self.deadline(Self.folder()) == nil, "once, however late, by default")
        #expect(try Self.deadline(Self.folder(source: "    missedRuns: skip\n")) == .seconds(60), "skip: one tick")
        #expect(try Self.deadline(Self.folder(source: "    missedRuns: skip\n    startingDeadline: 15m\n")) == .seconds(900))
        #expect(try Self.deadline(Self.folder(defaults: ", missedRuns: skip")) == .seconds(60))
        #expect(try Self.deadline(Self.folder(defaults: ", startingDeadline: 2h")) == .seconds(7200))
        #expect(try Self.deadline(Self.folder(defaults: ", startingDeadline: 2h", source: "    startingDeadline: 5m\n")) == .seconds(300))
        #expect(try Self.deadline(Self.folder(source: "    missedRuns: once\n")) == nil)
    }

    @Test(arguments: [
        ("", "    missedRuns: sometimes\n", "missedRuns 'sometimes' must be once (one catch-up run after an outage) or skip"),
        ("", "    startingDeadline: 30s\n", "startingDeadline 30s is shorter than service.tick 1m"),
        (", startingDeadline: 10s", "", "defaults: startingDeadline 10s is shorter than service.tick 1m"),
        ("", "    startingDeadline: soon\n", "'soon' is not a duration"),
        (", missedRuns: [skip]", "", "defaults: missedRuns"),
    ])
    func badPoliciesAreRefusedWithTheirPlace(defaults: String, source: String, message: String) throws {
        let problems = try Self.folder(defaults: defaults, source: source).problems().map(\.description)
        #expect(problems.contains { $0.contains(message) && $0.contains("scheduler.yaml:") }, "\(problems)")
    }

    @Test func aPurgeGraceComesFromTheSourceThenTheDefaultsThenOneHour() throws {
        func grace(_ folder: ConfigFolder) throws -> Duration? { try folder.load().scheduler.sources.first?.settings.purgeGrace }
        #expect(try grace(Self.folder()) == .seconds(3600))
        #expect(try grace(Self.folder(defaults: ", purgeGrace: 0")) == .zero, "0: final at once")
        #expect(try grace(Self.folder(defaults: ", purgeGrace: 0s")) == .zero)
        #expect(try grace(Self.folder(defaults: ", purgeGrace: 1d", source: "    purgeGrace: 15m\n")) == .seconds(900))
        for bad in ["soon", "-1h", "[1h]", "''"] {
            let problems = try Self.folder(source: "    purgeGrace: \(bad)\n").problems().map(\.description)
            #expect(problems.contains { $0.contains("purgeGrace") && $0.contains("scheduler.yaml:") }, "\(bad): \(problems)")
        }
    }

    @Test func theRequestDeadlineIsADurationOfAtMostFiveMinutes() throws {
        func folder(_ value: String) throws -> ConfigFolder {
            try ConfigFolder(scheduler: ConfigFolder.scheduler.replacingOccurrences(
                of: "service: { tick: 60s, listen: 127.0.0.1:8080 }", with: "service: { tick: 60s, listen: 127.0.0.1:8080, requestDeadline: \(value) }"
            ))
        }
        #expect(try ConfigFolder().load().scheduler.requestDeadline == .seconds(3))
        #expect(try folder("10s").load().scheduler.requestDeadline == .seconds(10))
        for bad in ["0", "soon", "1h"] {
            #expect(try folder(bad).problems().contains { $0.message.contains("service.requestDeadline") }, "\(bad)")
        }
    }

    @Test func maxStartsPerMinuteAndConcurrencyAreWholeNumbersInRange() throws {
        func folder(_ value: String) throws -> ConfigFolder {
            try ConfigFolder(scheduler: ConfigFolder.scheduler.replacingOccurrences(
                of: "service: { tick: 60s, listen: 127.0.0.1:8080 }", with: "service: { tick: 60s, listen: 127.0.0.1:8080, maxStartsPerMinute: \(value) }"
            ))
        }
        #expect(try folder("20").load().scheduler.maxStartsPerMinute == 20)
        #expect(try ConfigFolder().load().scheduler.maxStartsPerMinute == nil, "no limit by default")
        for bad in ["0", "-3", "2.5", "lots", "10000001"] {
            #expect(try folder(bad).problems().contains { $0.message.contains("service.maxStartsPerMinute") }, "\(bad)")
        }
        func concurrency(_ value: String) throws -> ConfigFolder {
            try ConfigFolder(scheduler: ConfigFolder.scheduler.replacingOccurrences(
                of: "service: { tick: 60s, listen: 127.0.0.1:8080 }", with: "service: { tick: 60s, listen: 127.0.0.1:8080, concurrency: \(value) }"
            ))
        }
        #expect(try concurrency("8").load().scheduler.concurrency == 8)
        #expect(try ConfigFolder().load().scheduler.concurrency == 4)
        for bad in ["0", "65", "10000", "all"] {
            #expect(try concurrency(bad).problems().contains { $0.message.contains("service.concurrency") }, "\(bad)")
        }
    }
}
