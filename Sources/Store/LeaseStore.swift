import Foundation

/// Leases with fencing, and the roll of replicas, for a store that several replicas share: before a replica runs or purges a unit it takes
/// the unit's lease, renews it while it works, and writes through ``fenced(by:)`` so that its writes are refused
/// once another replica holds a newer grant. Expiry is judged by the database's clock, the one all replicas share.
public protocol LeaseStore: Sendable {
    /// Grants `name` to `holder` for `duration` when no one holds it (never granted, released, or expired);
    /// `nil` when another grant is still live.
    func take(_ name: String, holder: String, for duration: Duration) async throws -> Lease?

    /// Extends `lease` by `duration` from now; `nil` when it was granted to another holder since.
    func renew(_ lease: Lease, for duration: Duration) async throws -> Lease?

    /// Gives `lease` up, so the next `take` succeeds at once; does nothing when it was granted to another since.
    func release(_ lease: Lease) async throws

    /// The leases not yet expired, for the status page.
    func liveLeases() async throws -> [Lease]

    /// Records that `replica` is alive and runs the configuration with `configFingerprint`.
    func heartbeat(replica: String, configFingerprint: String) async throws

    /// Records that other replicas can fetch the search copy of `replica` from `url` (the base URL of its operators'
    /// listener); returns `false`, recording nothing, when `replica` has no heartbeat yet. A heartbeat keeps the offer;
    /// ``removeReplica(_:)`` ends it.
    func offerSearchCopy(replica: String, at url: String) async throws -> Bool

    /// Forgets `replica`: it shut down.
    func removeReplica(_ replica: String) async throws

    /// Every replica that recorded a heartbeat and did not shut down, by id.
    func replicas() async throws -> [ReplicaRecord]

    /// The store whose every write first checks, in its own transaction, that `lease` is still the newest grant of
    /// its name, and throws ``LeaseLost`` otherwise.
    func fenced(by lease: Lease) -> any SchedulerStore
}
