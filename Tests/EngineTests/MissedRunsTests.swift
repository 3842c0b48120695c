import Engine
import Foundation
import PluginAPI
import Store
import StoreSupport
import Testing

/// `startingDeadline` and `missedRuns`: after an outage, a scheduled run reached too late is recorded as missed
/// and the unit waits for its next instant; a run on time, a retry after a failure and a forced run are not held back.
@Suite("Missed runs")
struct MissedRunsTests {
    /// 10:00 UTC on a Saturday; the schedule runs at every full hour.
    let start = EngineFixture.start

    static func fixture(_ backend: StoreBackend, lines: [String]) async throws -> EngineFixture {
        let fixture = try await EngineFixture(backend)
        fixture.schedule = "'cron \"0 * * * *\"'"
        fixture.sourceLines = lines
        try fixture.writeScheduler()
        try fixture.setFeed(["a"])
        return fixture
    }

    @Test(arguments: StoreBackend.allCases)
    func aRunReachedPastItsDeadlineIsMissedAndTheNextInstantRuns(backend: StoreBackend) async throws {
        let fixture = try await Self.fixture(backend, lines: ["startingDeadline: 10m"])
        #expect(try await fixture.pass(at: start).map(\.decision) == [.reindexed], "never succeeded: not held to a deadline")
        #expect(try await fixture.pass(at: start.plus(seconds: 3900)).map(\.decision) == [.reindexed], "11:05, five minutes late: on time")

        // An outage from 11:30 to 14:30: the run due at 12:00 is reached two and a half hours late.
        let late = try await fixture.pass(at: start.plus(seconds: 4.5 * 3600))
        #expect(late.map(\.decision) == [.missed])
        #expect(late[0].reason.contains("the run due at 2026-01-31T12:00:00") && late[0].reason.contains("startingDeadline 10m"), "\(late[0].reason)")
        #expect(late[0].nextDue == start.plus(seconds: 5 * 3600), "the next instant, 15:00")
        let state = try #require(try await fixture.unitState())
        #expect(state.lastResult == .missed && state.failures == 0 && state.lastSuccessAt == start.plus(seconds: 3900))
        #expect(try await fixture.withStore { try await $0.history(source: nil, unit: "articles", limit: 1) }.first?.decision == .missed)

        let waiting = try await fixture.pass(at: start.plus(seconds: 4.75 * 3600))
        #expect(waiting.map(\.decision) == [.notDue])
        #expect(waiting[0].reason.contains("was missed"), "\(waiting[0].reason)")
        #expect(try await fixture.pass(at: start.plus(seconds: 5 * 3600 + 120)).map(\.decision) == [.reindexed], "15:02: the instant waited for, on time")
    }

    @Test(arguments: StoreBackend.allCases)
    func withoutADeadlineOneCatchUpRunFollowsAnOutage(backend: StoreBackend) async throws {
        let fixture = try await Self.fixture(backend, lines: [])
        try await fixture.pass(at: start)
        #expect(try await fixture.pass(at: start.plus(seconds: 4.5 * 3600)).map(\.decision) == [.reindexed])
        #expect(try await fixture.pass(at: start.plus(seconds: 4.6 * 3600)).map(\.decision) == [.notDue], "once, not once per instant")
    }

    @Test(arguments: StoreBackend.allCases)
    func retriesAfterAFailureAndForcedRunsAreNotHeldToTheDeadline(backend: StoreBackend) async throws {
        let fixture = try await Self.fixture(backend, lines: ["missedRuns: skip"])
        try await fixture.pass(at: start)
        try fixture.setFeed(["FAIL"])
        #expect(try await fixture.pass(at: start.plus(seconds: 3600 + 30)).map(\.decision) == [.failed], "11:00:30, on time, fails")
        try fixture.setFeed(["a", "b"])
        #expect(try await fixture.pass(at: start.plus(seconds: 4.5 * 3600)).map(\.decision) == [.reindexed], "the retry, hours later, runs")
        #expect(try await fixture.pass(at: start.plus(seconds: 8.5 * 3600)).map(\.decision) == [.missed], "the next late instant is missed (skip: one tick)")
        #expect(try await fixture.pass(at: start.plus(seconds: 8.5 * 3600 + 60), .init(force: .full)).map(\.decision) == [.reindexed], "forced")
    }
}
