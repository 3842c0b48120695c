import Engine
import Foundation
import PluginAPI
import Store
import StoreSupport
import Testing

/// An operator's cancel: the run going now stops at its next batch boundary, its committed batches stay, nothing is
/// deleted, no success and no failure is recorded, and the unit waits for its next scheduled instant unless forced.
@Suite("Cancelling a run")
struct CancelTests {
    let start = EngineFixture.start

    @Test(arguments: StoreBackend.allCases)
    func aCancelledRunStopsAtItsNextBatchAndWaitsForItsNextInstant(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        fixture.schedule = "daily"
        try fixture.writeScheduler()
        try fixture.setFeed(["old", "a"])
        try await fixture.pass(at: start)
        let success = try #require(try await fixture.unitState()?.lastSuccessAt)
        #expect(try await fixture.withStore { try await $0.requestCancel(source: "articles", by: "a test") }.isEmpty, "nothing runs")

        try fixture.setFeed(["a", "WAIT", "b", "c", "d"])
        let later = start.plus(days: 2)
        let running = Task { try await fixture.pass(at: later, .init(batchSize: 1)) }
        #expect(try await eventually { try await fixture.unitState()?.lastResult == .running })
        let asked = try await fixture.withStore(at: later) { try await $0.requestCancel(source: "articles", by: "a test") }
        #expect(asked == ["articles"])
        try fixture.write("release", "")
        let outcomes = try await running.value

        #expect(outcomes.map(\.decision) == [.cancelled])
        #expect(outcomes[0].error?.hasPrefix("cancelled by a test: its plugin was stopped") == true, "\(outcomes[0].error ?? "")")
        #expect(outcomes[0].indexed >= 1 && outcomes[0].indexed < 4, "stopped at a batch boundary, before the end: \(outcomes[0].indexed)")
        let kept = try await fixture.identifiers()
        #expect(kept.contains("old") && kept.contains("a") && !kept.contains("d"), "committed batches stay, nothing swept: \(kept)")
        let state = try #require(try await fixture.unitState())
        #expect(state.lastResult == .cancelled && state.lastSuccessAt == success && state.failures == 0)
        #expect(state.retryAt == later.plus(days: 1), "the next scheduled instant")

        let next = try await fixture.pass(at: later.plus(seconds: 60))
        #expect(next.map(\.decision) == [.notDue])
        #expect(next[0].reason.contains("the last run was cancelled"), "\(next[0].reason)")
        let history = try await fixture.withStore { try await $0.history(source: nil, unit: "articles", limit: 1) }
        #expect(history.first?.decision == .cancelled)
        let forced = try await fixture.pass(at: later.plus(seconds: 120), .init(force: .full))
        #expect(forced.map(\.decision) == [.reindexed], "a forced run is not held back")
        #expect(try await fixture.identifiers() == ["a", "b", "c", "d"])
    }
}
