import Engine
import Foundation
import PluginAPI
import Store
import StoreSupport
import Testing

/// An operator's pause: kept in the store, obeyed by every pass (scheduled and forced) without purging, shown by
/// status, and undone by a resume.
@Suite("Pausing a source")
struct SourcePauseTests {
    let start = EngineFixture.start

    @Test(arguments: StoreBackend.allCases)
    func aPausedSourceIsLeftAloneEvenForcedAndRunsAgainOnceResumed(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        fixture.schedule = "daily"
        try fixture.writeScheduler()
        try fixture.setFeed(["a", "b"])
        try await fixture.pass(at: start)
        let sources = try fixture.load().scheduler.sources.map(\.name)
        let paused = try await fixture.withStore(at: start) { store in
            try await OperatorPause.pause(source: "articles", sources: sources, by: "a test", at: start.plus(seconds: 60), store: store)
        }
        #expect(paused.changed && paused.paused)

        // Two days later the unit is due, and a feed that would delete an item changed: nothing happens.
        try fixture.setFeed(["a"])
        let due = try await fixture.pass(at: start.plus(days: 2))
        #expect(due.map(\.decision) == [.paused])
        #expect(due[0].reason.contains("paused") && due[0].reason.contains("a test") && due[0].reason.contains("scheduler resume --source articles"))
        #expect(due[0].nextDue == nil)
        let forced = try await fixture.pass(at: start.plus(days: 2), .init(force: .full))
        #expect(forced.map(\.decision) == [.paused], "a forced run does not start either")
        #expect(try await fixture.identifiers() == ["a", "b"], "nothing was reindexed, nothing purged")

        let report = try await fixture.withStore(at: start.plus(days: 2)) { store in
            try await StatusReport.make(configuration: .success(try fixture.load()), store: store, now: start.plus(days: 2), watchingSince: start)
        }
        #expect(report.units.map(\.paused) == [true])
        #expect(report.units[0].due == false && report.units[0].overdue == nil, "a paused unit is not late for anything")
        #expect(report.pausedSources.map(\.source) == ["articles"])
        #expect(report.pausedSources.first?.pausedAt == start.plus(seconds: 60))

        let again = try await fixture.withStore(at: start) { store in
            try await OperatorPause.pause(source: "articles", sources: sources, by: "someone else", at: start.plus(days: 2), store: store)
        }
        #expect(!again.changed, "a paused source keeps its first pause")
        #expect(try await fixture.withStore { try await $0.pausedSources()["articles"]?.pausedBy } == "a test")

        let resumed = try await fixture.withStore { store in try await OperatorPause.resume(source: "articles", sources: sources, store: store) }
        #expect(resumed.changed && !resumed.paused)
        let after = try await fixture.pass(at: start.plus(days: 3))
        #expect(after.map(\.decision) == [.reindexed], "the unit that came due while paused runs at the next pass")
        #expect(try await fixture.identifiers() == ["a"])
        let twice = try await fixture.withStore { store in try await OperatorPause.resume(source: "articles", sources: sources, store: store) }
        #expect(!twice.changed)
    }

    @Test(arguments: StoreBackend.allCases)
    func aGateTurnedOffStillPurgesAPausedSource(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a", "b"])
        try await fixture.pass(at: start)
        try await fixture.withStore { store in
            try await OperatorPause.pause(source: "articles", sources: ["articles"], by: "a test", at: start, store: store)
        }
        try fixture.setGate(on: false)
        #expect(try await fixture.pass(at: start.plus(seconds: 60)).map(\.decision) == [.purged])
        #expect(try await fixture.identifiers().isEmpty)
    }

    @Test(arguments: StoreBackend.allCases)
    func unknownSourcesAreRefusedButAPausedSourceNoLongerConfiguredCanBeResumed(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try await fixture.withStore { store in
            let refusal = await #expect(throws: KnownSources.Refusal.self) {
                try await OperatorPause.pause(source: "articels", sources: ["articles", "blog"], by: "a test", at: self.start, store: store)
            }
            #expect(refusal?.description == "unknown source 'articels' (did you mean 'articles'?); the sources are articles, blog")
            await #expect(throws: KnownSources.Refusal.self) {
                try await OperatorPause.resume(source: "articels", sources: ["articles"], store: store)
            }
            let hostile = String(repeating: "<script>", count: 10_000)
            let long = await #expect(throws: KnownSources.Refusal.self) {
                try await OperatorPause.pause(source: hostile, sources: ["articles"], by: "a test", at: self.start, store: store)
            }
            #expect((long?.description.utf8.count ?? .max) < 200, "a huge name is cut in the message")
            #expect(try await store.pausedSources().isEmpty, "a refused pause stores nothing")

            _ = try await OperatorPause.pause(source: "retired", sources: ["retired"], by: "a test", at: self.start, store: store)
            let resumed = try await OperatorPause.resume(source: "retired", sources: ["articles"], store: store)
            #expect(resumed.changed)
            #expect(try await store.pausedSources().isEmpty)
        }
    }
}
