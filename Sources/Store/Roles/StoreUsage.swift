/// The store as operators see it: health, where it is, its size. One role of a ``SchedulerStore``.
public protocol StoreUsage: Sendable {
    /// Throws when the database cannot serve: for `/healthz`.
    func checkHealth() async throws

    /// Where the store is, for people: a file path, or a URL without its password.
    var location: String { get }

    /// Bytes the store occupies.
    func storageBytes() async throws -> Int
}
