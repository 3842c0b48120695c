import AsyncHTTPClient
import Engine
import Foundation
import Indexing
import Logging
import NIOCore
import Store
import Synchronization

/// The search copies of the replicas sharing a store, as sources for each other: a replica whose copy is made offers
/// it at its operators' listener (``offerIfMade(_:)``), and a new one fetches the copy of a live peer
/// (``fetchCopy(database:postings:)``) instead of reading every item from PostgreSQL, then follows from the commit
/// it holds.
///
/// Without `SCHEDULER_ADMIN_TOKEN` no replica offers or fetches. The token itself never travels: the request carries
/// a credential derived from it, which opens `GET /search-copy` alone, and a nonce from which the transfer's MAC key
/// is derived, so that only a peer holding the token can send a copy that is taken (``SearchCopyKeys``). The copy
/// travels as plain HTTP unless the URL a replica offers says `https` (a proxy in front): its items include those
/// only some may find, so peers should talk over a private network.
final class PeerSearchCopies: SearchCopySource {
    let leases: any LeaseStore
    /// This replica's id on the roll, never its own peer.
    let replica: String
    let keys: SearchCopyKeys?
    let logger: Logger
    /// Where this replica offers its copy, once known (``listening(at:)``), and whether the store holds the offer.
    private let offer = Mutex<(url: String?, recorded: Bool)>((nil, false))
    /// How long a peer may take to connect, and to send the next bytes: its first come once it copied its database
    /// for the transfer (about 1.4 GB a million items).
    static let connectTimeout: TimeAmount = .seconds(5)
    static let readTimeout: TimeAmount = .minutes(5)
    /// How long a fetch may take in all, from every peer tried: a replica waits this long at most before it makes its
    /// copy from the store (and is ready).
    static let longestFetch: Duration = .seconds(30 * 60)

    init(leases: any LeaseStore, replica: String, adminToken: String?, logger: Logger) {
        self.leases = leases
        self.replica = replica
        keys = SearchCopyKeys(adminToken: adminToken)
        self.logger = logger
    }

    /// This replica's operators' listener answers at `url` (`--advertise-url`, or the address it bound when that is
    /// one others can reach).
    func listening(at url: String) {
        offer.withLock { $0 = (url, false) }
    }

    /// Records the offer once `copy` is made: a store without this replica's heartbeat yet is asked again next time.
    func offerIfMade(_ copy: any SearchCopy) async {
        guard keys != nil, let url = offer.withLock({ $0.recorded ? nil : $0.url }), await copy.isMade else { return }
        do {
            if try await leases.offerSearchCopy(replica: replica, at: url) {
                offer.withLock { $0.recorded = true }
                if Self.isLoopback(url) {
                    logger.notice("""
                        offers its search copy to new replicas at \(url), a loopback address that only replicas on this host reach: \
                        give --advertise-url when replicas run on several hosts
                        """)
                } else {
                    logger.info("offers its search copy to new replicas at \(url)")
                }
            }
        } catch {
            logger.warning("could not offer the search copy to other replicas: \(error)")
        }
    }

    func fetchCopy(database: String, postings: String) async throws -> String? {
        SearchCopyReceiver.removeLeftovers(database: database, postings: postings)
        guard let keys else { return nil }
        let peers = try await livePeers()
        guard !peers.isEmpty else { return nil }
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(timeout: .init(connect: Self.connectTimeout, read: Self.readTimeout))
        )
        do {
            let fetched = try await Self.withinLongestFetch {
                try await self.fetch(from: peers, keys: keys, client: client, database: database, postings: postings)
            }
            try? await client.shutdown()
            return fetched
        } catch {
            // What a peer left is removed as its transfer fails (``fetch(from:keys:client:database:postings:)``).
            try? await client.shutdown()
            throw error
        }
    }

    /// `body`'s result, or a ``SearchCopyTransferError`` once ``longestFetch`` passed (`body` cancelled).
    private static func withinLongestFetch<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: longestFetch)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw SearchCopyTransferError("fetching the search copy took more than \(longestFetch)")
            }
            return result
        }
    }

    /// Tries each of `peers` in turn; the name of the first that gave its copy.
    private func fetch(from peers: [(id: String, url: String)], keys: SearchCopyKeys, client: HTTPClient, database: String, postings: String) async throws -> String? {
        for peer in peers {
            let name = "replica \(peer.id) (\(peer.url))"
            do {
                if try await fetch(from: peer.url, keys: keys, client: client, database: database, postings: postings) { return name }
                logger.info("\(name) has no search copy to give yet")
            } catch {
                SearchCopyReceiver.removeLeftovers(database: database, postings: postings)
                if error is CancellationError { throw error }
                logger.warning("could not fetch the search copy of \(name): \(error)")
            }
        }
        return nil
    }

    /// The peers offering a copy, the most recently alive first; those that did not beat within
    /// ``FairShare/liveWithin`` of the newest are gone, and one offering this replica's own address (a loopback
    /// address on another host) would be this replica.
    private func livePeers() async throws -> [(id: String, url: String)] {
        let roll = try await leases.replicas(), own = offer.withLock { $0.url }
        guard let newest = roll.map(\.heartbeatAt).max() else { return [] }
        return roll.filter { $0.id != replica && $0.heartbeatAt >= newest.addingTimeInterval(-FairShare.liveWithin) }
            .sorted { $0.heartbeatAt > $1.heartbeatAt }
            .compactMap { peer in peer.searchCopyURL.flatMap { $0 == own ? nil : (peer.id, $0) } }
    }

    /// Whether `url` names this host's loopback interface.
    static func isLoopback(_ url: String) -> Bool {
        guard let host = URLComponents(string: url)?.host else { return false }
        return host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }

    /// Fetches the copy at `base`; `false` when that replica has none to give (503).
    private func fetch(from base: String, keys: SearchCopyKeys, client: HTTPClient, database: String, postings: String) async throws -> Bool {
        let nonce = SearchCopyKeys.newNonce()
        var request = HTTPClientRequest(url: base.trimmingSuffix("/") + "/search-copy")
        request.headers.add(name: "Authorization", value: "Bearer \(keys.credential)")
        request.headers.add(name: SearchCopyTransfer.nonceHeader, value: nonce)
        let response = try await client.execute(request, timeout: .seconds(Int64(Self.longestFetch.components.seconds)))
        if response.status == .serviceUnavailable { return false }
        guard response.status == .ok else { throw SearchCopyTransferError("it answered \(response.status)") }
        var receiver = try SearchCopyReceiver(database: database, postings: postings, key: keys.transferKey(nonce: nonce))
        for try await buffer in response.body { try receiver.consume(buffer) }
        try await receiver.finish()
        return true
    }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
