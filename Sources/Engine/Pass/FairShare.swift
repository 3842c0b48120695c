public import Foundation
import SchedulerConfig
public import Store

/// Where a replica sharing a store starts its walk over the units that have work, so that replicas share out the
/// units that come due together (a first start, a config change) instead of all queueing on the same leases: evenly
/// spaced by their places on the roll of live replicas (sorted by id), or, for a replica not on the roll (`run-once`),
/// at the place a hash of its id gives. Each replica then runs the units from its place to the next replica's, and
/// finds those past it done or leased, unless that replica is slower.
public enum FairShare {
    /// A replica is live when it beat within this long of the newest heartbeat (both by the database's clock; the
    /// service beats every 30 s and at every pass).
    public static let liveWithin: TimeInterval = 90

    /// The index, in `0..<count`, at which `replica` starts its walk.
    public static func offset(of replica: String, roll: [ReplicaRecord], count: Int) -> Int {
        guard count > 0 else { return 0 }
        if let newest = roll.map(\.heartbeatAt).max() {
            let live = roll.filter { $0.heartbeatAt >= newest.addingTimeInterval(-liveWithin) }.map(\.id).sorted()
            if let place = live.firstIndex(of: replica) { return place * count / live.count }
        }
        return Bucketing.bucket("replica/\(replica)") * count / Bucketing.bucketCount
    }
}
