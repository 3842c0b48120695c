import Engine
import Foundation
import PluginAPI
import Store
import StoreSupport
import Testing

/// `service.concurrency`: units run that many at once, so a slow source holds back no other, and the outcomes still
/// come in config order.
@Suite("Units in parallel")
struct ConcurrencyTests {
    @Test(arguments: StoreBackend.allCases)
    func aSlowUnitHoldsBackNoOther(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        fixture.partitions = "[slow, fast, later]"
        try fixture.writeScheduler()
        try fixture.setFeed(["s1", "WAIT", "s2"], partition: "slow")
        try fixture.setFeed(["f1", "f2"], partition: "fast")
        try fixture.setFeed(["l1"], partition: "later")
        var options = ReconcilePass.Options(batchSize: 1)
        options.concurrency = 2
        let start = EngineFixture.start
        let pass = Task { try await fixture.pass(at: start, options) }
        // The slow unit waits; the two others, one after the other in the second slot, finish meanwhile.
        let others = try await eventually {
            let fast = try await fixture.identifiers(in: "com.example.articles.fast")
            let later = try await fixture.identifiers(in: "com.example.articles.later")
            return fast == ["f1", "f2"] && later == ["l1"]
        }
        #expect(others, "the units behind the slow one ran while it waited")
        #expect(try await fixture.unitState("articles/slow")?.lastResult == .running)
        try fixture.write("release", "")
        let outcomes = try await pass.value
        #expect(outcomes.map(\.unit) == ["articles/slow", "articles/fast", "articles/later"], "config order")
        #expect(outcomes.allSatisfy { $0.decision == .reindexed })
        #expect(try await fixture.identifiers(in: "com.example.articles.slow") == ["s1", "s2"])
    }
}
