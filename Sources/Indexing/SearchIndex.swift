public import Foundation
public import PluginAPI

/// A searchable index with Core Spotlight's semantics: items upserted by unique identifier, grouped in
/// hierarchical domains, expiring, written in atomic batches that may carry a client state, and searched
/// by prefix with ranking; beside it, what people searched for and opened (``SearchUsage``).
public protocol SearchIndex: SearchUsage {
    /// Applies every operation of `batch`, and stores its client state, in one transaction:
    /// either all of it is committed or none of it is.
    @discardableResult
    func commit(_ batch: IndexBatch) async throws -> BatchOutcome

    /// The client state last committed under `batchName`, or `nil` if none was.
    func lastClientState(batchName: String) async throws -> Data?

    /// The live (unexpired) items matching `query`, best first, and how many match in all.
    func search(_ query: SearchQuery) async throws -> SearchResults

    /// How many items each domain holds, keyed by exact domain identifier.
    func itemCountsByDomain() async throws -> [String: Int]

    /// The number of the last commit (0 before the first).
    func lastCommitNumber() async throws -> Int64

    /// How many items `domain` and the domains under it hold (an index range scan, not a count of every domain).
    func itemCount(inDomain domain: String) async throws -> Int

    /// Which of `domains` hold at least one item (in themselves or a domain under them): one read, one index lookup
    /// per domain, whatever the size of the index or of the domains. What a pass needs to decide 1,000 units.
    func domainsHoldingItems(among domains: [String]) async throws -> Set<String>

    /// How many items of `domain` (and the domains under it) were last written by commit `number` or earlier.
    func itemCount(inDomain domain: String, committedThrough number: Int64) async throws -> Int

    /// Deletes every item whose expiration date has passed; returns how many. A sweep that deleted any counts as a
    /// change from outside the runs.
    @discardableResult
    func sweepExpired() async throws -> Int

    /// How many times the index was changed other than by a unit's run or purge: a ``commit(_:)`` (`scheduler index
    /// import`, `delete`, `clear`, the items API) or a sweep that deleted items. Such a change may empty a domain a
    /// unit succeeded in, so a pass that sees this number move decides every unit again (``Store/PassSettlement``).
    func outsideChangeCount() async throws -> Int64

    /// The stored item with this identifier, expired or not (a purged one is gone).
    func item(withIdentifier identifier: String) async throws -> SearchableItem?

    /// Deletes up to `limit` rows of a purge that made them invisible (``PendingPurge``), in one short transaction;
    /// returns how many, or `nil` when no purge is pending. Repeat until `nil`. A purge restorable at the index's
    /// clock's now is left alone; the first step on one past its grace makes it final.
    func reclaimPurgedItems(limit: Int) async throws -> Int?

    /// The purges whose rows are not all reclaimed, with their progress.
    func pendingPurges() async throws -> [PendingPurge]

    /// The domains whose purge was restorable, with until when: those still restorable, and those past their grace
    /// that no reclaim step or final purge has ended yet. Reads the purges alone, never an item.
    func restorablePurges() async throws -> [String: Date]
}

extension SearchIndex {
    /// Inserts or replaces `items` in one batch.
    @discardableResult
    public func upsert(_ items: [SearchableItem]) async throws -> BatchOutcome {
        try await commit(IndexBatch(operations: [.upsert(items)]))
    }

    /// Deletes the items with these identifiers.
    @discardableResult
    public func delete(identifiers: [String]) async throws -> BatchOutcome {
        try await commit(IndexBatch(operations: [.deleteIdentifiers(identifiers)]))
    }

    /// Deletes these domains and every domain under them: gone from every read when this returns, their rows
    /// reclaimed by ``reclaimPurgedItems(limit:)``.
    @discardableResult
    public func delete(domains: [String]) async throws -> BatchOutcome {
        try await commit(IndexBatch(operations: [.deleteDomains(domains)]))
    }

    /// The item with this identifier when a search could return it at `now`: stored, not expired, not purged.
    /// An identifier holding a NUL names no item (items with one are refused), and is not sent to the database, where
    /// it could be cut at the NUL or refused as text.
    public func liveItem(withIdentifier identifier: String, at now: Date) async throws -> SearchableItem? {
        guard !identifier.utf8.contains(0), let item = try await item(withIdentifier: identifier), item.expirationDate.map({ $0 > now }) ?? true else { return nil }
        return item
    }

    /// Deletes every item and every client state.
    @discardableResult
    public func deleteAll() async throws -> BatchOutcome {
        try await commit(IndexBatch(operations: [.deleteAll]))
    }
}
