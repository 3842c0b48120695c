import Foundation
import PluginAPI
public import Store

/// An operator's purge of a domain (`scheduler purge`, the admin endpoint). With a shared store it holds the leases of
/// every unit the store remembers inside the domain while it purges, so no replica runs one of them meanwhile (a run
/// would put items back and record a success over the purge); when another replica holds one of those leases it
/// refuses with ``UnitBusy`` and purges nothing.
public enum OperatorPurge {
    /// A unit inside the domain is being run or purged by another replica.
    public struct UnitBusy: Error, CustomStringConvertible {
        public var unit: String
        public var description: String {
            "unit \(unit) is being run or purged by another replica; nothing was purged: try again when it has finished"
        }
    }

    /// Purges `domain`; returns how many items were deleted.
    public static func purge(
        domain: String, store: any SchedulerStore, holder: String = RunnerIdentity.current, leaseDuration: Duration = StoreDefaults.leaseDuration
    ) async throws -> Int {
        guard let leases = store.leases else { return try await store.purge(domain: domain) }
        let units = try await store.units().values.filter { DomainIdentifier.isWithin($0.domain, domain) }.map(\.unit).sorted()
        var held: [Lease] = []
        func releaseAll() async {
            for lease in held { try? await leases.release(lease) }
        }
        do {
            for unit in units {
                guard let lease = try await leases.take(Lease.unitName(unit), holder: holder, for: leaseDuration) else {
                    throw UnitBusy(unit: unit)
                }
                held.append(lease)
            }
            let deleted = try await store.purge(domain: domain)
            await releaseAll()
            return deleted
        } catch {
            await releaseAll()
            throw error
        }
    }
}
