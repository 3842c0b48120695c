import Foundation
import Store
import Synchronization

/// The search keys as the store holds them, read again once they are ``maxAge`` old: a key made or revoked on
/// another replica works, or stops working, here within that. A key made or revoked through this replica is read at
/// the next request (``forget()``).
final class SearchKeyring: Sendable {
    /// How long a reading of the keys serves.
    static let maxAge: Duration = .seconds(2)

    private struct Reading {
        var keys: [String: SearchKey]
        var readAt: ContinuousClock.Instant
    }

    private let store: any SearchKeyStore
    private let reading = Mutex<Reading?>(nil)

    init(store: any SearchKeyStore) {
        self.store = store
    }

    /// The key `uid`, not revoked (it may have expired).
    func key(uid: String) async throws -> SearchKey? {
        let now = ContinuousClock.now
        if let current = reading.withLock({ $0 }), now - current.readAt < Self.maxAge { return current.keys[uid] }
        let keys = Dictionary(try await store.searchKeys().map { ($0.uid, $0) }, uniquingKeysWith: { first, _ in first })
        reading.withLock { $0 = Reading(keys: keys, readAt: now) }
        return keys[uid]
    }

    /// Reads the keys again at the next request.
    func forget() {
        reading.withLock { $0 = nil }
    }
}
