import Foundation
import HostSupport
import Store

/// The search keys as the store holds them, read again once they are ``maxAge`` old: a key made or revoked on
/// another replica works, or stops working, here within that. A key made or revoked through this replica is read
/// at the next request (``forget()``). One request at a time reads the store; the others meanwhile go on with the
/// last reading (a reading none: they wait for their own).
final class SearchKeyring: Sendable {
    /// How long a reading of the keys serves.
    static let maxAge: Duration = .seconds(2)

    private let store: any SearchKeyStore
    private let reading = PeriodicReading<[String: SearchKey]>(maxAge: maxAge)

    init(store: any SearchKeyStore) {
        self.store = store
    }

    /// The key `uid`, not revoked (it may have expired).
    func key(uid: String) async throws -> SearchKey? {
        try await reading.value { [store] in
            Dictionary(try await store.searchKeys().map { ($0.uid, $0) }, uniquingKeysWith: { first, _ in first })
        }[uid]
    }

    /// Reads the keys again at the next request, and keeps no reading begun before.
    func forget() {
        reading.forget()
    }
}
