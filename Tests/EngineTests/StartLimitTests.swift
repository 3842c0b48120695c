import Engine
import Foundation
import PluginAPI
import Store
import StoreSupport
import Testing

/// `service.maxStartsPerMinute`: when many units are due at once, the service starts that many a minute and the
/// rest at later passes; forced runs are not held back.
@Suite("Starts a minute")
struct StartLimitTests {
    @Test(arguments: StoreBackend.allCases)
    func manyUnitsDueAtOnceStartAFewAMinute(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        fixture.partitions = "[" + (1...8).map { "p\($0)" }.joined(separator: ", ") + "]"
        try fixture.writeScheduler()
        for partition in 1...8 { try fixture.setFeed(["a\(partition)"], partition: "p\(partition)") }
        let start = EngineFixture.start
        let clock = SettableClock()
        clock.set(start)
        var options = ReconcilePass.Options()
        options.starts = (StartLimiter(clock: clock), 3)

        let first = try await fixture.pass(at: start, options)
        #expect(first.filter { $0.decision == .reindexed }.count == 3)
        let held = first.filter { $0.decision == .skipped }
        #expect(held.count == 5 && held.allSatisfy { $0.reason == "service.maxStartsPerMinute 3 reached: it starts at a later pass" })
        clock.set(start.plus(seconds: 30))
        #expect(try await fixture.pass(at: start.plus(seconds: 30), options).filter { $0.decision == .reindexed }.isEmpty, "the same minute")
        clock.set(start.plus(seconds: 61))
        #expect(try await fixture.pass(at: start.plus(seconds: 61), options).filter { $0.decision == .reindexed }.count == 3)

        options.force = .full
        #expect(try await fixture.pass(at: start.plus(seconds: 62), options).allSatisfy { $0.decision == .reindexed }, "forced runs all start")
    }
}
