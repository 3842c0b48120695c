import Engine
import Foundation
import PluginAPI
import SchedulerConfig
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

    /// Replicas sharing a store walk the units from an offset of their own (here, off the roll of replicas: a hash of
    /// its name), so that units coming due together are shared out instead of all replicas queueing on the same
    /// leases; a store without leases keeps config order.
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

    /// Live replicas on the roll start evenly spaced, in the order of their ids; a replica whose heartbeat is old no
    /// longer counts; one not on the roll starts where its hash says.
    @Test func liveReplicasStartEvenlySpaced() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func replica(_ id: String, beatAgo seconds: TimeInterval) -> ReplicaRecord {
            ReplicaRecord(id: id, configFingerprint: "f", startedAt: now.addingTimeInterval(-3600), heartbeatAt: now.addingTimeInterval(-seconds))
        }
        let roll = [replica("c", beatAgo: 5), replica("a", beatAgo: 0), replica("gone", beatAgo: 600), replica("b", beatAgo: 40)]
        #expect(["a", "b", "c"].map { FairShare.offset(of: $0, roll: roll, count: 9) } == [0, 3, 6])
        #expect(FairShare.offset(of: "a", roll: roll, count: 0) == 0)
        // Off the roll (run-once, or a replica whose heartbeat is old): the bucket of "replica/r1" is 8,159.
        #expect(FairShare.offset(of: "r1", roll: roll, count: 10) == 8)
        #expect(FairShare.offset(of: "gone", roll: roll, count: 10_000) == Bucketing.bucket("replica/gone"))
    }
}
