/// The store as operators see it: health, where it is, its size. One role of a ``SchedulerStore``.
public protocol StoreUsage: Sendable {
    /// Throws when the database cannot serve: for `/healthz`.
    func checkHealth() async throws

    /// Where the store is, for people: a file path, or a URL without its password.
    var location: String { get }

    /// Bytes the store occupies.
    func storageBytes() async throws -> Int

    /// Bytes of the search structures saved beside the store (an SQLite index's saved search postings), `nil` when
    /// there are none: a PostgreSQL replica keeps its search copy with it, not with the store.
    func savedSearchStructureBytes() async throws -> Int?
}

extension StoreUsage {
    public func savedSearchStructureBytes() async throws -> Int? { nil }
}
