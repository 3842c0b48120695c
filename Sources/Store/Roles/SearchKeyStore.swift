/// The search keys, on every replica: one made or revoked on one replica is known to the others at their next read.
/// One role of a ``SchedulerStore``.
public protocol SearchKeyStore: Sendable {
    /// Every key not revoked, expired ones included, oldest first.
    func searchKeys() async throws -> [SearchKey]

    /// Adds `key`; its uid is new (random).
    func addSearchKey(_ key: SearchKey) async throws

    /// Revokes the key `uid`: it is deleted. Returns whether there was one.
    func revokeSearchKey(uid: String) async throws -> Bool
}
