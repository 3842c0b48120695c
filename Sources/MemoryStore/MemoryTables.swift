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
        /// The item's ``ItemDigest`` as it was sent (its own expiration date, not the one it got).
        var digest: Int64
        var words: [SearchColumn: [String]]
    }

    /// A purge whose rows are not all reclaimed: the rows of its domain written by `throughCommit` or earlier are gone.
    struct Tombstone: Sendable {
        var throughCommit: Int64
        var purgedAt: Date
        var items: Int
        /// Until when the purge may be undone; `nil` when it is final.
        var restorableUntil: Date?
    }

    /// The items by identifier, compared byte for byte as the databases compare text (Swift's `==` would merge the
    /// composed and decomposed spellings of "café", which are two identifiers to SQLite and PostgreSQL).
    private(set) var rows: [ExactText: Row] = [:]
    /// The highest row identifier in each priority band (by the band's first identifier), where known: a new item's
    /// identifier is the next one (the databases' `max(id) + 1` within the band) without a walk over every row. A
    /// band whose highest row is deleted is read again from the rows at its next insert.
    private var highestIdentifiers: [Int64: Int64] = [:]
    var lastCommitNumber: Int64 = 0
    /// Changes of the index from outside the runs (``Indexing/SearchIndex/outsideChangeCount()``).
    var outsideChanges: Int64 = 0
    /// What the last whole pass settled (``Store/PassSettlement``).
    var passSettlement: PassSettlement?
    var clientStates: [String: Data] = [:]
    var tombstones: [String: Tombstone] = [:]
    var units: [String: UnitState] = [:]
    /// The state each unit's last successful run committed (``UnitSuccess/state``).
    var syncStates: [String: SyncState] = [:]
    /// The history with its row numbers, oldest first.
    var history: [(id: Int64, run: RunRecord)] = []
    var lastRunID: Int64 = 0
    var leases: [String: Lease] = [:]
    /// The sources operators paused, by name.
    var pauses: [String: SourcePause] = [:]
    /// The search keys not revoked, oldest first.
    var searchKeys: [SearchKey] = []
    /// Who asked the run going now of each unit to stop, by unit.
    var cancelRequests: [String: String] = [:]
    var replicas: [String: ReplicaRecord] = [:]
    /// The words typos are corrected to (``SearchVocabulary``).
    var vocabulary = Set<String>()
    /// The opens of each opened item, with its domain when first opened, by query (`""`: over every query) and day.
    var opens: [ExactText: (domain: String, counts: [OpenDay: Int])] = [:]

    /// The searches of each query and day, and how many found nothing.
    var searches: [SearchDay: (searches: Int, withoutHits: Int)] = [:]

    /// What a search count is kept by.
    struct SearchDay: Hashable, Sendable {
        var query: ExactText
        var day: Int
    }

    /// What an open count is kept by within an item.
    struct OpenDay: Hashable, Sendable {
        var query: String
        var day: Int
    }

    /// Whether `row` is visible: no tombstone covers it.
    func isLive(_ row: Row) -> Bool {
        !tombstones.contains { domain, tombstone in
            row.commitNumber <= tombstone.throughCommit && DomainIdentifier.isWithin(row.item.domainIdentifier, domain)
        }
    }

    /// Makes the pass decide the units within `domain` again, their state otherwise kept.
    mutating func unsettle(within domain: String) {
        for (key, state) in units where DomainIdentifier.isWithin(state.domain, domain) { units[key]?.settledUntil = nil }
    }

    /// The purges not yet reclaimed, the oldest first, as the reclaimer takes them.
    var tombstonesOldestFirst: [(domain: String, tombstone: Tombstone)] {
        tombstones.sorted { ($0.value.purgedAt, $0.key) < ($1.value.purgedAt, $1.key) }.map { ($0.key, $0.value) }
    }

    /// The rows the purge of `domain` hid and that are still there.
    func rowsLeft(by domain: String) -> [Row] {
        guard let tombstone = tombstones[domain] else { return [] }
        return rows.values.filter { DomainIdentifier.isWithin($0.item.domainIdentifier, domain) && $0.commitNumber <= tombstone.throughCommit }
    }

    /// The visible rows of `domain` and the domains under it.
    func liveRows(within domain: String) -> [Row] {
        rows.values.filter { DomainIdentifier.isWithin($0.item.domainIdentifier, domain) && isLive($0) }
    }

    /// Inserts `item`, or replaces whole the row with its identifier, stamped with `commitNumber`; an item whose
    /// content digest equals the stored one only gets the commit number (and a renewed expiration when due), as in
    /// the databases. Returns what it changed.
    @discardableResult
    mutating func upsert(_ item: SearchableItem, expiration: DefaultExpiration, now: Date, commitNumber: Int64) -> StoredItem.Change {
        let digest = ItemDigest.of(item)
        let key = ExactText(item.uniqueIdentifier)
        var keptID: Int64?
        if var existing = rows[key] {
            // A row a purge hid is written again whole, as the databases write it (they read no digest for it).
            let change = isLive(existing)
                ? expiration.change(writing: item, digest: digest, over: StoredItem(digest: existing.digest, expiration: existing.item.expirationDate!)) : .content
            switch change {
            case .none, .expiration:
                if case .expiration(let date) = change { existing.item.expirationDate = date }
                existing.commitNumber = commitNumber
                rows[key] = existing
                return change
            case .content:
                removeRow(key)
                // Its opens follow it, so that a purge of its new domain deletes them.
                opens[key]?.domain = item.domainIdentifier
                // The same ranking hint keeps its place in priority order, as in the databases.
                if existing.item.rankingHint == item.rankingHint { keptID = existing.id }
            }
        }
        var stored = item
        stored.expirationDate = expiration.expiration(of: item)
        let band = ItemPriority(rankingHint: item.rankingHint)
        let id = keptID ?? nextIdentifier(in: band)
        rows[key] = Row(id: id, item: stored, indexedAt: now, commitNumber: commitNumber, digest: digest, words: Self.words(of: item))
        SearchVocabulary.insertWords(of: item, into: &vocabulary)
        return .content
    }

    /// The identifier a new item of `band` gets: one past the band's highest.
    private mutating func nextIdentifier(in band: ItemPriority) -> Int64 {
        let highest = highestIdentifiers[band.firstIdentifier]
            ?? rows.values.lazy.map(\.id).filter { (band.firstIdentifier...band.lastIdentifier).contains($0) }.max()
            ?? band.firstIdentifier - 1
        highestIdentifiers[band.firstIdentifier] = highest + 1
        return highest + 1
    }

    /// Removes the row of `key`, and forgets its band's highest identifier if it was this row's.
    @discardableResult
    private mutating func removeRow(_ key: ExactText) -> Row? {
        guard let row = rows.removeValue(forKey: key) else { return nil }
        let band = ItemPriority(rankingHint: row.item.rankingHint).firstIdentifier
        if highestIdentifiers[band] == row.id { highestIdentifiers[band] = nil }
        return row
    }

    /// The words of the vocabulary each lookup names, in byte order, as the databases read them.
    func vocabularyWords(for lookups: [TypoCorrector.Lookup]) -> [[String]] {
        lookups.map { lookup in
            vocabulary.filter { word in
                !word.utf8.lexicographicallyPrecedes(lookup.lower.utf8) && word.utf8.lexicographicallyPrecedes(lookup.upper.utf8)
                    && word.unicodeScalars.count >= lookup.minimumLetters
            }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .prefix(TypoTolerance.maxWordsRead).map { $0 }
        }
    }

    /// Applies every operation of `batch` as commit number `lastCommitNumber + 1`, and stores its client state; items
    /// without an expiration date expire as the batch says, else by `defaultExpiration`.
    mutating func apply(_ batch: IndexBatch, now: Date, defaultExpiration: DefaultExpiration) -> BatchOutcome {
        lastCommitNumber += 1
        let number = lastCommitNumber
        var outcome = BatchOutcome(commitNumber: number)
        for operation in batch.operations {
            switch operation {
            case .upsert(let items):
                for item in items where upsert(item, expiration: batch.defaultExpiration ?? defaultExpiration, now: now, commitNumber: number) != .content {
                    outcome.unchanged += 1
                }
                outcome.upserted += items.count
            case .deleteIdentifiers(let identifiers):
                for identifier in identifiers where removeRow(ExactText(identifier)) != nil {
                    opens[ExactText(identifier)] = nil
                    outcome.deleted += 1
                }
            case .deleteDomains(let domains):
                for domain in domains {
                    outcome.deleted += purge(domain: domain, commitNumber: number, deletingThisCommitsRows: outcome.upserted > 0, now: now).removed
                }
            case .deleteStale(let domain, let through):
                // Rows a purge hid are not stale items of this run: the reclaimer deletes them.
                let stale = Set(liveRows(within: domain).filter { $0.commitNumber <= through }.map(\.id))
                outcome.deleted += deleteRows { stale.contains($0.id) }
            case .deleteAll:
                outcome.deleted += rows.count
                rows = [:]
                highestIdentifiers = [:]
                opens = [:]
                vocabulary = []
                clientStates = [:]
                tombstones = [:]
            }
        }
        if let state = batch.clientState { clientStates[state.batchName] = state.data }
        return outcome
    }

    /// Deletes the rows `isDeleted` picks, and their opens; returns how many.
    /// Appends `run` to the history, and keeps the last `keep` runs.
    mutating func appendHistory(_ run: RunRecord, keep: Int) {
        lastRunID += 1
        history.append((lastRunID, run))
        history.removeAll { $0.id <= lastRunID - Int64(keep) }
    }

    mutating func deleteRows(where isDeleted: (Row) -> Bool) -> Int {
        let doomed = rows.filter { isDeleted($0.value) }.keys
        for key in doomed {
            removeRow(key)
            opens[key] = nil
        }
        return doomed.count
    }

    /// The lift each of `rows` gets from its opens (``Popularity``); none when `popularity` is `nil`.
    func lifts(of rows: [Row], popularity: Popularity?) -> [Int64: Double] {
        guard let popularity, !opens.isEmpty else { return [:] }
        return popularity.lifts(rows.flatMap { row in
            (opens[ExactText(row.item.uniqueIdentifier)]?.counts ?? [:]).compactMap { key, count in
                key.query.isEmpty || key.query.utf8.elementsEqual((popularity.query ?? "").utf8)
                    ? Popularity.Opens(id: row.id, forQuery: !key.query.isEmpty, day: key.day, opens: count) : nil
            }
        })
    }

    /// Adds `tallies` to the opens of the live items they name; drops the others, and a query's new count past the
    /// item's ``OpenTally/maxQueriesPerItemAndDay`` that day.
    mutating func record(_ tallies: [OpenTally]) {
        for tally in OpenTally.merged(tallies) {
            let key = ExactText(tally.key.identifier)
            guard let row = rows[key], isLive(row) else { continue }
            let day = OpenDay(query: tally.key.query ?? "", day: tally.key.day)
            var entry = opens[key] ?? (row.item.domainIdentifier, [:])
            let queriesThatDay = entry.counts.keys.count { !$0.query.isEmpty && $0.day == day.day }
            guard day.query.isEmpty || entry.counts[day] != nil || queriesThatDay < OpenTally.maxQueriesPerItemAndDay else { continue }
            entry.counts[day, default: 0] += tally.opens
            opens[key] = entry
        }
    }

    /// Deletes the opens of days before `day`; returns how many counts.
    mutating func deleteOpens(before day: Int) -> Int {
        var deleted = 0
        for key in Array(opens.keys) {
            let before = opens[key]!.counts.count
            opens[key]!.counts = opens[key]!.counts.filter { $0.key.day >= day }
            deleted += before - opens[key]!.counts.count
            if opens[key]!.counts.isEmpty { opens[key] = nil }
        }
        return deleted
    }

    /// Tombstones `domain` inside commit `number`, as ``SearchIndex/commit(_:)`` documents a purge; returns how many
    /// items it removed.
    /// Restorable until `until` when it is given and no earlier purge of `domain` is still being reclaimed; returns
    /// whether it is.
    @discardableResult
    mutating func purge(
        domain: String, commitNumber number: Int64, deletingThisCommitsRows: Bool, now: Date, restorableUntil until: Date? = nil
    ) -> (removed: Int, restorable: Bool) {
        let restorable = until != nil && tombstones[domain] == nil
        let written = !deletingThisCommitsRows ? 0 : deleteRows { DomainIdentifier.isWithin($0.item.domainIdentifier, domain) && $0.commitNumber == number }
        let hidden = liveRows(within: domain).count
        opens = opens.filter { !DomainIdentifier.isWithin($0.value.domain, domain) }
        let previous = tombstones[domain]?.items ?? 0
        tombstones[domain] = Tombstone(throughCommit: number - 1, purgedAt: now, items: previous + hidden, restorableUntil: restorable ? until : nil)
        return (written + hidden, restorable)
    }

    /// Deletes the tombstone of `domain` when it is restorable at `now`; returns how many items it had purged.
    mutating func restore(domain: String, now: Date) -> Int? {
        guard let tombstone = tombstones[domain], let until = tombstone.restorableUntil, until > now else { return nil }
        tombstones[domain] = nil
        return tombstone.items
    }

    /// The folded words of each searchable field, as the SQLite index's postings hold them.
    static func words(of item: SearchableItem) -> [SearchColumn: [String]] {
        var words: [SearchColumn: [String]] = [:]
        for column in SearchColumn.allCases {
            let text: String? = switch column {
            case .title: item.title
            case .displayName: item.displayName
            case .keywords: KeywordList.encode(item.keywords)
            case .authorNames: KeywordList.encode(item.authorNames)
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

/// Text as the databases compare it: by its UTF-8 bytes.
struct ExactText: Hashable, Sendable {
    let bytes: [UInt8]
    init(_ text: String) { bytes = Array(text.utf8) }

    static func equal(_ left: String?, _ right: String?) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case (let left?, let right?): left.utf8.elementsEqual(right.utf8)
        default: false
        }
    }
}
