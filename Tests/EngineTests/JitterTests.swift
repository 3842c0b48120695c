import Engine
import Foundation
import PluginAPI
import Store
import StoreSupport
import Testing

/// Units sharing a schedule start spread over their source's `jitter`: at any instant, exactly those whose offset
/// has passed are due, and `status` shows each one's offset.
@Suite("Jitter")
struct JitterTests {
    @Test(arguments: StoreBackend.allCases)
    func unitsSharingAnInstantStartSpreadOverTheJitter(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        fixture.schedule = "'cron \"0 * * * *\"'"
        fixture.partitions = "[" + (1...12).map { "p\($0)" }.joined(separator: ", ") + "]"
        fixture.sourceLines = ["jitter: 30m"]
        try fixture.writeScheduler()
        for partition in 1...12 { try fixture.setFeed(["a\(partition)"], partition: "p\(partition)") }
        let start = EngineFixture.start
        #expect(try await fixture.pass(at: start).allSatisfy { $0.decision == .reindexed }, "first runs are not jittered")

        let offsets = Dictionary(uniqueKeysWithValues: try fixture.load().plans(at: start).map { ($0.unit.key, $0.jitter) })
        let quarterPast = start.plus(seconds: 3600 + 900)
        let early = Set(offsets.filter { $0.value <= .seconds(900) }.keys)
        #expect(!early.isEmpty && early.count < 12, "the offsets of these twelve units fall on both sides of 15 minutes")
        let due = try await fixture.pass(at: quarterPast)
        #expect(Set(due.filter { $0.decision == .reindexed }.map(\.unit)) == early, "at 11:15, the units whose offset passed")
        #expect(try await fixture.pass(at: start.plus(seconds: 3600 + 1800)).filter { $0.decision == .reindexed }.count == 12 - early.count)

        let report = try await fixture.withStore { store in
            try await StatusReport.make(configuration: .success(try fixture.load()), store: store, now: start.plus(seconds: 7200))
        }
        #expect(report.units.allSatisfy { $0.jitter == offsets[$0.unit]?.seconds }, "status shows each unit's offset")
    }
}
