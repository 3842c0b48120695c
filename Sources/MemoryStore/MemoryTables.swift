import Foundation
import Indexing
import PluginAPI
import Store

/// Everything a ``MemoryStore`` holds, as the real backends hold it in their tables; each operation of the store
/// changes it under one lock, the memory twin of a transaction.
struct MemoryTables: Sendable {
    /// An item as stored: its row identifier (``ItemPriority`` band, then a sequence), its dates, the commit that
    /// last wrote it, and the folded words of each searchable field.
    struct Row: Sendable {
        var id: Int64
        var item: SearchableItem
        var indexedAt: Date
        var commitNumber: Int64
        var words: [SearchColumn: [String]]
    }

    /// A purge whose rows are not all reclaimed: the rows of its domain written by `throughCommit` or earlier are gone.
    struct Tombstone: Sendable {
        var throughCommit: Int64
        var purgedAt: Date
        var items: Int
    }

    var rows: [String: Row] = [:]
    var lastCommitNumber: Int64 = 0
    var clientStates: [String: Data] = [:]
    var tombstones: [String: Tombstone] = [:]
    var units: [String: UnitState] = [:]
    /// The history with its row numbers, oldest first.
    var history: [(id: Int64, run: RunRecord)] = []
    var lastRunID: Int64 = 0
    var leases: [String: Lease] = [:]
    var replicas: [String: ReplicaRecord] = [:]

    /// Whether `domain` is `ancestor` or lies under it, compared bytewise as the databases do.
    static func domain(_ domain: String, isWithin ancestor: String) -> Bool {
        domain == ancestor || domain.utf8.starts(with: (ancestor + ".").utf8)
    }

    /// Whether `row` is visible: no tombstone covers it.
    func isLive(_ row: Row) -> Bool {
        !tombstones.contains { domain, tombstone in
            row.commitNumber <= tombstone.throughCommit && Self.domain(row.item.domainIdentifier, isWithin: domain)
        }
    }

    /// The visible rows of `domain` and the domains under it.
    func liveRows(within domain: String) -> [Row] {
        rows.values.filter { Self.domain($0.item.domainIdentifier, isWithin: domain) && isLive($0) }
    }

    /// Inserts `item`, or replaces whole the row with its identifier, stamped with `commitNumber`; an item whose
    /// content equals the stored one only renews its dates and commit, as in the databases.
    mutating func upsert(_ item: SearchableItem, expiration: Date, now: Date, commitNumber: Int64) {
        var stored = item
        stored.expirationDate = expiration
        if var existing = rows[item.uniqueIdentifier] {
            var old = existing.item
            old.expirationDate = expiration
            if old == stored {
                existing.item = stored
                existing.indexedAt = now
                existing.commitNumber = commitNumber
                rows[item.uniqueIdentifier] = existing
                return
            }
            rows[item.uniqueIdentifier] = nil
        }
        let band = ItemPriority(rankingHint: item.rankingHint)
        let last = rows.values.lazy.map(\.id).filter { (band.firstIdentifier...band.lastIdentifier).contains($0) }.max()
        rows[item.uniqueIdentifier] = Row(
            id: (last ?? band.firstIdentifier - 1) + 1, item: stored, indexedAt: now, commitNumber: commitNumber, words: Self.words(of: item)
        )
    }

    /// Deletes the rows `isDeleted` picks; returns how many.
    mutating func deleteRows(where isDeleted: (Row) -> Bool) -> Int {
        let before = rows.count
        rows = rows.filter { !isDeleted($0.value) }
        return before - rows.count
    }

    /// Tombstones `domain` inside commit `number`, as ``SearchIndex/commit(_:)`` documents a purge; returns how many
    /// items it removed.
    mutating func purge(domain: String, commitNumber number: Int64, deletingThisCommitsRows: Bool, now: Date) -> Int {
        let written = !deletingThisCommitsRows ? 0 : deleteRows { Self.domain($0.item.domainIdentifier, isWithin: domain) && $0.commitNumber == number }
        let hidden = liveRows(within: domain).count
        let previous = tombstones[domain]?.items ?? 0
        tombstones[domain] = Tombstone(throughCommit: number - 1, purgedAt: now, items: previous + hidden)
        return written + hidden
    }

    /// The folded words of each searchable field, as the full-text tables hold them.
    static func words(of item: SearchableItem) -> [SearchColumn: [String]] {
        var words: [SearchColumn: [String]] = [:]
        for column in SearchColumn.allCases {
            let text: String? = switch column {
            case .title: item.title
            case .displayName: item.displayName
            case .keywords: KeywordList.encode(item.keywords)
            case .contentDescription: item.contentDescription
            }
            var found: [String] = []
            if let text {
                TextFolding.forEachWord(in: text) { word in
                    found.append(String(decoding: word, as: UTF8.self))
                    return true
                }
            }
            words[column] = found
        }
        return words
    }
}
