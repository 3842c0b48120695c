import Foundation
import Store
import Synchronization

/// The search keys as the store holds them, read again once they are ``maxAge`` old: a key made or revoked on
/// another replica works, or stops working, here within that. A key made or revoked through this replica is read
/// at the next request (``forget()``). One request at a time reads the store; the others meanwhile go on with the
/// last reading (a reading none: they wait for their own).
final class SearchKeyring: Sendable {
    /// How long a reading of the keys serves.
    static let maxAge: Duration = .seconds(2)

    private struct State {
        var keys: [String: SearchKey]?
        var readAt: ContinuousClock.Instant?
        /// Counts ``forget()``s: a reading begun before one is not kept.
        var generation = 0
        var reading = false
    }

    private let store: any SearchKeyStore
    private let state = Mutex(State())

    init(store: any SearchKeyStore) {
        self.store = store
    }

    /// The key `uid`, not revoked (it may have expired).
    func key(uid: String) async throws -> SearchKey? {
        let now = ContinuousClock.now
        let (current, generation, reads) = state.withLock { state -> ([String: SearchKey]?, Int, Bool) in
            let fresh = state.readAt.map { now - $0 < Self.maxAge } ?? false
            if state.keys != nil, fresh || state.reading { return (state.keys, state.generation, false) }
            state.reading = true
            return (nil, state.generation, true)
        }
        if let current, !reads { return current[uid] }
        let keys: [String: SearchKey]
        do {
            keys = Dictionary(try await store.searchKeys().map { ($0.uid, $0) }, uniquingKeysWith: { first, _ in first })
        } catch {
            state.withLock { $0.reading = false }
            throw error
        }
        state.withLock { state in
            state.reading = false
            guard state.generation == generation else { return }
            (state.keys, state.readAt) = (keys, now)
        }
        return keys[uid]
    }

    /// Reads the keys again at the next request, and keeps no reading begun before.
    func forget() {
        state.withLock { state in
            state.generation += 1
            (state.keys, state.readAt) = (nil, nil)
        }
    }
}
