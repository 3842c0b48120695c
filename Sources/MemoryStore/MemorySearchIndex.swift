public import Foundation
import HostSupport
public import Indexing
public import PluginAPI
import Store

/// The index of a ``MemoryStore``: Core Spotlight's semantics as the SQLite and PostgreSQL indexes implement them
/// (batches as one change, commit numbers, purges as tombstones reclaimed in steps, expiry), searched with the
/// same terms, candidates and scorer, so the conformance suite holds it to the same answers.
public struct MemorySearchIndex: SearchIndex {
    let tables: MemoryDatabase
    let timeToLive: Duration
    let clock: any WallClock

    @discardableResult
    public func commit(_ batch: IndexBatch) async throws -> BatchOutcome {
        try commit(batch) { tables, _ in tables.outsideChanges += 1 }
    }

    /// Commits `batch` and runs `alongside` after it in the same change, with its outcome, as the store's operations
    /// do; a throw discards the whole change.
    func commit(_ batch: IndexBatch, alongside: (inout MemoryTables, BatchOutcome) throws -> Void) throws -> BatchOutcome {
        try batch.validate()
        let now = clock.now()
        return try tables.change { tables in
            let outcome = tables.apply(batch, now: now, defaultExpiration: DefaultExpiration(lifetime: timeToLive.seconds, from: now))
            try alongside(&tables, outcome)
            return outcome
        }
    }

    public func lastClientState(batchName: String) async throws -> Data? {
        tables.read { $0.clientStates[batchName] }
    }

    public func itemCountsByDomain() async throws -> [String: Int] {
        tables.read { tables in
            tables.rows.values.filter(tables.isLive).reduce(into: [:]) { counts, row in counts[row.item.domainIdentifier, default: 0] += 1 }
        }
    }

    public func lastCommitNumber() async throws -> Int64 {
        tables.read(\.lastCommitNumber)
    }

    public func outsideChangeCount() async throws -> Int64 {
        tables.read(\.outsideChanges)
    }

    public func itemCount(inDomain domain: String) async throws -> Int {
        tables.read { $0.liveRows(within: domain).count }
    }

    public func domainsHoldingItems(among domains: [String]) async throws -> Set<String> {
        tables.read { tables in Set(domains.filter { !tables.liveRows(within: $0).isEmpty }) }
    }

    public func itemCount(inDomain domain: String, committedThrough number: Int64) async throws -> Int {
        tables.read { $0.liveRows(within: domain).filter { $0.commitNumber <= number }.count }
    }

    @discardableResult
    public func sweepExpired() async throws -> Int {
        let now = clock.now()
        return tables.change { tables in
            let expired = Set(tables.rows.values.filter { $0.item.expirationDate! <= now && tables.isLive($0) }.map(\.id))
            if !expired.isEmpty { tables.outsideChanges += 1 }
            return tables.deleteRows { expired.contains($0.id) }
        }
    }

    public func item(withIdentifier identifier: String) async throws -> SearchableItem? {
        tables.read { tables in tables.rows[ExactText(identifier)].flatMap { tables.isLive($0) ? $0.item : nil } }
    }

    public func reclaimPurgedItems(limit: Int) async throws -> Int? {
        let now = clock.now()
        return tables.change { tables in
            guard let (domain, _) = tables.tombstonesOldestFirst.first(where: { ($0.tombstone.restorableUntil ?? .distantPast) <= now }) else { return nil }
            tables.tombstones[domain]?.restorableUntil = nil
            let covered = tables.rowsLeft(by: domain)
            let doomed = Set(covered.prefix(limit).map(\.id))
            let deleted = tables.deleteRows { doomed.contains($0.id) }
            if covered.count < limit { tables.tombstones[domain] = nil }
            return deleted
        }
    }

    public func pendingPurges() async throws -> [PendingPurge] {
        tables.read { tables in
            tables.tombstonesOldestFirst.map { domain, tombstone in
                PendingPurge(
                    domain: domain, purgedAt: tombstone.purgedAt, purgedItems: tombstone.items, rowsLeft: tables.rowsLeft(by: domain).count,
                    restorableUntil: tombstone.restorableUntil
                )
            }
        }
    }

    public func restorablePurges() async throws -> [String: Date] {
        tables.read { tables in tables.tombstones.compactMapValues(\.restorableUntil) }
    }
}
