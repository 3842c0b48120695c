import Engine
import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// The service's ticks decide only what is due: after a whole pass settled every unit, a tick reads and decides the
/// units the store's due index names, and nothing a user would notice changes: a unit still runs when its schedule
/// says, when the configuration changes, when its gate turns off, when a pause ends or its domain is emptied.
@Suite("Ticks over settled units")
struct SettledUnitsTests {
    static let partitions = ["a", "b", "c"]

    /// A fixture with three partitions, each with one item in its feed, not yet run.
    static func threePartitions(_ backend: StoreBackend) async throws -> EngineFixture {
        let fixture = try await EngineFixture(backend)
        fixture.partitions = "[" + partitions.joined(separator: ", ") + "]"
        try fixture.writeScheduler()
        for partition in partitions { try fixture.setFeed(["\(partition)1"], partition: partition) }
        return fixture
    }

    /// A fixture with three partitions, each with one item, run once and settled by the tick after.
    static func settledFixture(_ backend: StoreBackend) async throws -> EngineFixture {
        let fixture = try await threePartitions(backend)
        let first = try await fixture.tick(at: EngineFixture.start)
        #expect(first.outcomes.map(\.decision) == [.reindexed, .reindexed, .reindexed] && first.settledUnits == 0)
        let second = try await fixture.tick(at: EngineFixture.start.plus(seconds: 60))
        #expect(second.outcomes.map(\.decision) == [.notDue, .notDue, .notDue], "a unit that ran is decided once more, then settled")
        return fixture
    }

    @Test(arguments: StoreBackend.allCases)
    func anIdleTickDecidesNoUnit(backend: StoreBackend) async throws {
        let fixture = try await Self.settledFixture(backend)
        let idle = try await fixture.tick(at: EngineFixture.start.plus(days: 1))
        #expect(idle.outcomes.isEmpty && idle.settledUnits == 3)
        let report = try await fixture.execute(at: EngineFixture.start.plus(days: 1))
        #expect(report.outcomes.count == 3 && report.settledUnits == 0, "run-once still decides and reports every unit")
    }

    /// Units whose gate is off from the start have nothing to do and no state: a whole pass that found only those is
    /// settled all the same, and the gate turned on runs them at once.
    @Test(arguments: StoreBackend.allCases)
    func unitsGatedOffFromTheStartAreSettledAndRunWhenTheGateTurnsOn(backend: StoreBackend) async throws {
        let fixture = try await Self.threePartitions(backend)
        try fixture.setGate(on: false)
        #expect(try await fixture.tick(at: EngineFixture.start).outcomes.map(\.decision) == [.skipped, .skipped, .skipped])
        let idle = try await fixture.tick(at: EngineFixture.start.plus(seconds: 60))
        #expect(idle.outcomes.isEmpty && idle.settledUnits == 3)
        try fixture.setGate(on: true)
        #expect(try await fixture.tick(at: EngineFixture.start.plus(seconds: 120)).outcomes.map(\.decision) == [.reindexed, .reindexed, .reindexed])
    }

    @Test(arguments: StoreBackend.allCases)
    func aSettledUnitRunsWhenItsScheduleSays(backend: StoreBackend) async throws {
        let fixture = try await Self.settledFixture(backend)
        #expect(try await fixture.tick(at: EngineFixture.start.plus(days: 27)).outcomes.isEmpty)
        let due = try await fixture.tick(at: EngineFixture.start.plus(days: 32))
        #expect(due.outcomes.map(\.decision) == [.reindexed, .reindexed, .reindexed])
    }

    /// The schedule is not part of the items' fingerprint, but it is of the pass's signature: a unit settled until
    /// next month under `monthly` runs tomorrow under `daily`.
    @Test(arguments: StoreBackend.allCases)
    func aChangedScheduleDecidesEveryUnitAgain(backend: StoreBackend) async throws {
        let fixture = try await Self.settledFixture(backend)
        fixture.schedule = "daily"
        try fixture.writeScheduler()
        let tick = try await fixture.tick(at: EngineFixture.start.plus(days: 2))
        #expect(tick.outcomes.map(\.decision) == [.reindexed, .reindexed, .reindexed] && tick.settledUnits == 0)
    }

    @Test(arguments: StoreBackend.allCases)
    func aNewPartitionRunsAtTheNextTick(backend: StoreBackend) async throws {
        let fixture = try await Self.settledFixture(backend)
        fixture.partitions = "[a, b, c, d]"
        try fixture.writeScheduler()
        try fixture.setFeed(["d1"], partition: "d")
        let tick = try await fixture.tick(at: EngineFixture.start.plus(days: 1))
        #expect(tick.outcomes.filter { $0.decision == .reindexed }.map(\.unit) == ["articles/d"])
        #expect(try await fixture.identifiers().contains("d1"))
    }

    @Test(arguments: StoreBackend.allCases)
    func aGateTurnedOffPurgesSettledUnits(backend: StoreBackend) async throws {
        let fixture = try await Self.settledFixture(backend)
        try fixture.setGate(on: false)
        let tick = try await fixture.tick(at: EngineFixture.start.plus(days: 1))
        #expect(tick.outcomes.map(\.decision) == [.purged, .purged, .purged])
        #expect(try await fixture.identifiers().isEmpty)
        // Restorable for the default purgeGrace (1 h): settled until it ends, then made final, then settled for good.
        let day = EngineFixture.start.plus(days: 1)
        #expect(try await fixture.tick(at: day.plus(seconds: 60)).outcomes.map(\.decision) == [.skipped, .skipped, .skipped])
        #expect(try await fixture.tick(at: day.plus(seconds: 1800)).outcomes.isEmpty, "settled until the grace ends")
        #expect(try await fixture.tick(at: day.plus(seconds: 3600)).outcomes.map(\.decision) == [.purged, .purged, .purged])
        #expect(try await fixture.tick(at: EngineFixture.start.plus(days: 2)).outcomes.map(\.decision) == [.skipped, .skipped, .skipped])
        #expect(try await fixture.tick(at: EngineFixture.start.plus(days: 3)).outcomes.isEmpty, "settled while the gate is off")
    }

    /// A paused source's units are settled for good while the pause lasts; its end changes the signature.
    @Test(arguments: StoreBackend.allCases)
    func unitsOfAResumedSourceRunWhenDue(backend: StoreBackend) async throws {
        let fixture = try await Self.settledFixture(backend)
        let start = EngineFixture.start
        try await fixture.withStore(at: start) { store in
            _ = try await OperatorPause.pause(source: "articles", sources: ["articles"], by: "a test", at: start, store: store)
        }
        #expect(try await fixture.tick(at: start.plus(days: 1)).outcomes.map(\.decision) == [.paused, .paused, .paused])
        #expect(try await fixture.tick(at: start.plus(days: 40)).outcomes.isEmpty, "settled while paused")
        try await fixture.withStore(at: start) { store in _ = try await store.resume(source: "articles") }
        #expect(try await fixture.tick(at: start.plus(days: 40)).outcomes.map(\.decision) == [.reindexed, .reindexed, .reindexed])
    }

    /// Items deleted from outside the runs (`scheduler index delete`, the expiry sweep) may leave a unit's domain empty
    /// though it succeeded: the next tick decides every unit, and that one runs again.
    @Test(arguments: StoreBackend.allCases)
    func aDomainEmptiedFromOutsideIsFilledAgain(backend: StoreBackend) async throws {
        let fixture = try await Self.settledFixture(backend)
        try await fixture.withStore { store in _ = try await store.index.delete(identifiers: ["b1"]) }
        let tick = try await fixture.tick(at: EngineFixture.start.plus(days: 1))
        #expect(tick.outcomes.map(\.decision) == [.notDue, .reindexed, .notDue] && tick.settledUnits == 0)
        #expect(try await fixture.identifiers() == ["a1", "b1", "c1"])
    }

    /// An operator's purge of a domain under a unit's may empty the unit's domain while its state stands: it counts
    /// as a change from outside, and the next tick fills the domain again.
    @Test(arguments: StoreBackend.allCases)
    func aPurgeUnderAUnitsDomainRunsTheUnitAgain(backend: StoreBackend) async throws {
        let fixture = try await Self.settledFixture(backend)
        try fixture.setFeed(["sub:b1"], partition: "b")
        #expect(try await fixture.execute(at: EngineFixture.start.plus(days: 1), .init(force: .full, sources: ["articles"])).outcomes.count == 3)
        _ = try await fixture.tick(at: EngineFixture.start.plus(days: 1))
        #expect(try await fixture.tick(at: EngineFixture.start.plus(days: 2)).outcomes.isEmpty)
        try await fixture.withStore { store in _ = try await store.purge(domain: "com.example.articles.b.sub") }
        let tick = try await fixture.tick(at: EngineFixture.start.plus(days: 3))
        #expect(tick.outcomes.map(\.decision) == [.notDue, .reindexed, .notDue])
    }

    /// The state of a unit the configuration no longer declares is settled too: ticks do not read it again.
    @Test(arguments: StoreBackend.allCases)
    func theStateOfARemovedPartitionIsNotReadAgain(backend: StoreBackend) async throws {
        let fixture = try await Self.settledFixture(backend)
        fixture.partitions = "[a, b]"
        try fixture.writeScheduler()
        #expect(try await fixture.tick(at: EngineFixture.start.plus(days: 1)).outcomes.count == 2)
        #expect(try await fixture.unitState("articles/c")?.settledUntil == .distantFuture)
        #expect(try await fixture.tick(at: EngineFixture.start.plus(days: 2)).outcomes.isEmpty)
    }

    /// A whole pass that left units to a later one (the start limit held them back) settles nothing for good: the next
    /// tick decides every unit again, and the units never run are not forgotten.
    @Test(arguments: StoreBackend.allCases)
    func unitsHeldBackByTheStartLimitAreNotForgotten(backend: StoreBackend) async throws {
        let fixture = try await Self.threePartitions(backend)
        let clock = SettableClock(EngineFixture.start)
        let limiter = StartLimiter(clock: clock)
        let first = try await fixture.tick(at: EngineFixture.start) { $0.starts = (limiter, 1) }
        #expect(first.outcomes.map(\.decision).sorted { $0.rawValue < $1.rawValue } == [.reindexed, .skipped, .skipped])
        for (minute, expected) in [(1, 2), (2, 3)] {
            let at = EngineFixture.start.plus(seconds: Double(minute * 60 + 1))
            clock.set(at)
            _ = try await fixture.tick(at: at) { $0.starts = (limiter, 1) }
            #expect(try await fixture.identifiers().count == expected)
        }
        #expect(try await fixture.tick(at: EngineFixture.start.plus(days: 1)).outcomes.filter { $0.decision != .notDue }.isEmpty)
    }
}
