public import Foundation

/// A `scheduler run` process sharing the store, as its last heartbeat recorded it.
public struct ReplicaRecord: Sendable, Hashable, Codable {
    public var id: String
    /// The fingerprint of the configuration it runs: replicas that disagree run different configs.
    public var configFingerprint: String
    public var startedAt: Date
    /// By the database's clock.
    public var heartbeatAt: Date
    /// Where other replicas fetch its search copy from (its operators' listener), once the copy is made; `nil` before,
    /// and for a replica whose listener others cannot reach (``LeaseStore/offerSearchCopy(replica:at:)``).
    public var searchCopyURL: String?

    public init(id: String, configFingerprint: String, startedAt: Date, heartbeatAt: Date, searchCopyURL: String? = nil) {
        self.id = id
        self.configFingerprint = configFingerprint
        self.startedAt = startedAt
        self.heartbeatAt = heartbeatAt
        self.searchCopyURL = searchCopyURL
    }
}
