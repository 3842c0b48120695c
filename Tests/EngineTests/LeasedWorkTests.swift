@testable import Engine
import Foundation
import HostSupport
import Indexing
import PluginAPI
import ProcessSupport
import Store
import StoreSupport
import Testing

/// Work under a lease (``LeasedWork``) on the stores that have leases (PostgreSQL, and the memory twin's).
@Suite("Work under a lease")
struct LeasedWorkTests {
    static let clock = FixedWallClock(ISO8601.date(from: "2026-03-01T12:00:00Z")!)

    /// A write under the lease that finds it lost (another replica took the unit over while this one was starved,
    /// before a renewal noticed) stops the work, throws, and says so at warning level, as a renewal's finding is said.
    @Test(arguments: StoreBackend.allCases.filter { $0 != .sqlite })
    func aWriteThatFindsTheLeaseLostStopsTheWorkAndSaysSo(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            let leases = try #require(store.leases)
            let log = LogRecorder()
            let work = LeasedWork(leases: leases, holder: "starved", duration: .seconds(60), logger: log.logger())
            let name = Lease.unitName("help")
            await #expect(throws: LeaseLost.self) {
                _ = try await work.run(name) { fenced in
                    // Another replica takes the unit over, as if this one's grant had expired.
                    let mine = try #require(try await leases.liveLeases().first { $0.name == name })
                    try await leases.release(mine)
                    _ = try #require(try await leases.take(name, holder: "other", for: .seconds(60)))
                    try await fenced.recordAttemptStart(
                        UnitState(unit: "help", source: "help", domain: "com.shop.help"), at: Self.clock.now(), forced: false
                    )
                }
            }
            #expect(log.count("the lease \(name) was lost to other") == 1, "\(log.messages)")
            #expect(log.messages.contains { $0.contains("the lease \(name) ") && $0.contains("the work under it stops") })
        }
    }
}
