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
        // Replicas sharing a store start their walk at an offset of their own; this name's is the first unit.
        options.replica = "first"
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

    /// Replicas sharing a store walk the units from an offset of their own (a hash of their name), so that units coming
    /// due together are shared out instead of all replicas queueing on the same leases; a store without leases keeps
    /// config order.
    @Test(arguments: StoreBackend.allCases)
    func replicasSharingAStoreStartTheirWalkAtDifferentUnits(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        let partitions = (0..<10).map { "p\($0)" }
        fixture.partitions = "[\(partitions.joined(separator: ", "))]"
        try fixture.writeScheduler()
        for partition in partitions { try fixture.setFeed([partition], partition: partition) }
        var options = ReconcilePass.Options()
        // The bucket of "replica/r1" is 8,159 of 10,000: its walk over 10 units starts at the ninth.
        options.replica = "r1"
        let outcomes = try await fixture.pass(at: EngineFixture.start, options)
        #expect(outcomes.map(\.unit) == partitions.map { "articles/\($0)" }, "outcomes come in config order")
        let history = try await fixture.withStore { try await $0.history(source: "articles", limit: 100) }
        let walk = history.reversed().map(\.unit)
        let sharesLeases = backend != .sqlite
        #expect(walk.first == (sharesLeases ? "articles/p8" : "articles/p0"), "\(walk)")
        #expect(Set(walk).count == 10)
    }
}
