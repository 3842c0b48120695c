import Foundation
import GRDB
import Indexing
import PluginAPI
import Store

/// Writes and deletes item rows, inside the caller's transaction. The words are indexed by the search postings, which
/// read the rows each commit wrote (``SearchPostings``): nothing else in the file holds them.
///
/// Every write of a row sets its `commitNumber`, so that a row's id and commit number name one version of what it holds:
/// the search postings' candidate records (``CandidateRecords``) rely on it, and read a row again from SQLite when its
/// commit number is not their record's. A statement that changed a row's searchable text, ranking hint or page without
/// a new commit number would make searches rank it as it was.
struct ItemRows {
    let db: Database
    /// The domain a unit's batch is confined to: an identifier a live item outside it holds is neither written nor
    /// deleted, but reported (``HeldIdentifiers``); any identifier may be written when `nil`.
    var owner: String?

    /// What writing a batch's items did besides writing them.
    struct Upserted {
        /// Items written (an identifier sent twice counting twice), the unchanged ones included.
        var written = 0
        /// Items stored with the same content already.
        var unchanged = 0
        /// The words of the items written, for the search vocabulary.
        var words = Set<String>()
    }

    /// Inserts `items`, or replaces whole the rows with the same identifiers, stamped with `commitNumber`; returns
    /// how many were stored with the same content already, and the words of those written.
    ///
    /// An item whose content digest equals the stored one (what a periodic reindex mostly writes) is only marked as
    /// sent by the commit (``ItemMarkTable``), its row untouched, unless its expiration date is due for renewal: no
    /// search postings need to read it again. What is stored is read for the whole batch in one statement, and the
    /// marks written in one. An item rewritten with the same ranking hint keeps its place in
    /// priority order (its id), as on every store; with `priorities` (one per item: a copy's, ``SQLiteSearchCopy``)
    /// an item written takes the id given, its place in the followed index.
    func upsert(
        _ items: [SearchableItem], priorities: [Int64]? = nil, packer: TextPacker, expiration: DefaultExpiration, now: Date,
        commitNumber: Int64, taken: inout HeldIdentifiers
    ) throws -> Upserted {
        let stored = try storedItems(items.map(\.uniqueIdentifier))
        /// What this batch wrote, for an identifier it sends again (by its bytes, as SQLite compares them: the two
        /// spellings of "café" are two items).
        var written: [[UInt8]: (id: Int64, stored: StoredItem)] = [:]
        var marks = Set<Int64>()
        var outcome = Upserted()
        /// The id after the last one of each priority band written, once read: one lookup a band, not one an item.
        var nextInBand: [Int64: Int64] = [:]
        for (position, item) in items.enumerated() {
            if let held = stored[position]?.heldBy, taken.refuse(item.uniqueIdentifier, heldBy: held, outside: owner) { continue }
            outcome.written += 1
            let digest = ItemDigest.of(item)
            // Made only when needed: an unchanged item of a batch that wrote nothing yet (most of a reindex) needs none.
            func key() -> [UInt8] { Array(item.uniqueIdentifier.utf8) }
            let before = written.isEmpty ? stored[position]?.item : written[key()] ?? stored[position]?.item
            var keptID: Int64?
            if let (id, storedItem) = before {
                switch expiration.change(writing: item, digest: digest, over: storedItem) {
                case .none:
                    marks.insert(id)
                    outcome.unchanged += 1
                    continue
                case .expiration(let date):
                    try db.cachedStatement(sql: "UPDATE item SET commitNumber = ?, expirationDate = ? WHERE id = ?")
                        .execute(arguments: [commitNumber, date.timeIntervalSince1970, id])
                    written[key()] = (id, StoredItem(digest: digest, expiration: date))
                    outcome.unchanged += 1
                    continue
                case .content:
                    marks.remove(id)
                    keptID = try replace(by: item)
                }
            }
            let id = try insert(
                item, id: priorities?[position] ?? keptID, nextInBand: &nextInBand, digest: digest, packer: packer, expiration: expiration,
                now: now, commitNumber: commitNumber
            )
            written[key()] = (id, StoredItem(digest: digest, expiration: expiration.expiration(of: item)))
            SearchVocabulary.insertWords(of: item, into: &outcome.words)
        }
        try ItemMarkTable.mark(marks, commitNumber: commitNumber, db)
        return outcome
    }

    /// Deletes the row that `item` replaces; returns the id `item` keeps (the row's when its ranking hint, and so its
    /// place in priority order, did not change).
    private func replace(by item: SearchableItem) throws -> Int64? {
        guard let existing = try storedRow(identifier: item.uniqueIdentifier) else { return nil }
        try delete(existing)
        if existing["domainIdentifier"] != item.domainIdentifier {
            // Its opens follow it, so that a purge of its new domain deletes them.
            try db.cachedStatement(sql: "UPDATE item_open SET domainIdentifier = ? WHERE uniqueIdentifier = ?")
                .execute(arguments: [item.domainIdentifier, item.uniqueIdentifier])
        }
        return existing["rankingHint"] == item.rankingHint ? existing["id"] : nil
    }

    /// Inserts the row of `item`, with `id` or the next one of its priority band (`nextInBand` holds those known, by
    /// band, and is kept up to date); returns its id.
    private func insert(
        _ item: SearchableItem, id keptID: Int64?, nextInBand: inout [Int64: Int64], digest: Int64, packer: TextPacker,
        expiration: DefaultExpiration, now: Date, commitNumber: Int64
    ) throws -> Int64 {
        let keywords = KeywordList.encode(item.keywords), authorNames = KeywordList.encode(item.authorNames)
        let band = ItemPriority(rankingHint: item.rankingHint)
        let id: Int64
        if let keptID {
            id = keptID
            // A given id past the known end of the band (a copy's) moves the end.
            if let next = nextInBand[band.band], keptID >= next { nextInBand[band.band] = keptID + 1 }
        } else {
            id = try nextInBand[band.band] ?? nextID(in: band)
            nextInBand[band.band] = id + 1
        }
        try run("""
            INSERT INTO item (id, uniqueIdentifier, domainIdentifier, contentType, title, displayName,
                contentDescription, keywords, authorNames, contentCreationDate, contentModificationDate, thumbnailURL,
                thumbnailData, contentURL, relatedUniqueIdentifier, rankingHint, expirationDate, indexedAt, commitNumber, contentDigest, access,
                version, isCurrentVersion)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [
                id, item.uniqueIdentifier, item.domainIdentifier, item.contentType, item.title, item.displayName,
                packer.pack(item.contentDescription), keywords, authorNames, item.contentCreationDate?.timeIntervalSince1970,
                item.contentModificationDate?.timeIntervalSince1970, item.thumbnailURL, item.thumbnailData, item.contentURL,
                item.relatedUniqueIdentifier, item.rankingHint, expiration.expiration(of: item).timeIntervalSince1970, now.timeIntervalSince1970,
                commitNumber, digest, item.access.map(KeywordList.encode), item.version, item.isCurrentVersion,
            ])
        return id
    }

    /// What is stored for an identifier a batch writes: the item, and the domain holding it when that is a live
    /// item's (a unit may not take it from another domain).
    private struct StoredRow {
        var item: (id: Int64, stored: StoredItem)
        var heldBy: String?
    }

    /// What is stored for each of `identifiers`, by position; a row a purge hid has no digest (it is written again
    /// whole) and is nobody's.
    private func storedItems(_ identifiers: [String]) throws -> [StoredRow?] {
        var stored = [StoredRow?](repeating: nil, count: identifiers.count)
        // Within SQLite's default limit of 32766 parameters. The positions are literals, and a chunk is padded with
        // NULL identifiers (which match nothing) to a power of two: a handful of statements serve every batch size
        // and stay cached.
        let chunkSize = 8192
        for start in stride(from: 0, to: identifiers.count, by: chunkSize) {
            let chunk = identifiers[start..<min(start + chunkSize, identifiers.count)]
            var padded = 16
            while padded < chunk.count { padded *= 2 }
            let values = (0..<padded).map { "(\($0), ?)" }.joined(separator: ",")
            let statement = try db.cachedStatement(sql: """
                WITH batch(position, identifier) AS (VALUES \(values))
                SELECT batch.position, item.id, item.contentDigest, item.expirationDate, item.domainIdentifier,
                    \(PurgedDomains.liveCondition())
                FROM batch JOIN item ON item.uniqueIdentifier = batch.identifier
                """)
            let arguments = StatementArguments(chunk.map { $0 as String? } + Array(repeating: nil, count: padded - chunk.count))
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try rows.next() {
                let live: Bool = row[5]
                stored[start + row[0]] = StoredRow(
                    item: (row[1], StoredItem(digest: live ? row[2] : nil, expiration: Date(timeIntervalSince1970: row[3]))),
                    heldBy: live ? row[4] : nil
                )
            }
        }
        return stored
    }

    /// The id after the last one of `band`: an item new to it goes after its items.
    private func nextID(in band: ItemPriority) throws -> Int64 {
        let last = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT max(id) FROM item WHERE id BETWEEN ? AND ?"),
            arguments: [band.firstIdentifier, band.lastIdentifier]
        )
        return (last ?? band.firstIdentifier - 1) + 1
    }

    /// Deletes the item with `identifier`, if any, and its open counts; returns how many (0 or 1).
    func delete(identifier: String, taken: inout HeldIdentifiers) throws -> Int {
        guard let row = try storedRow(identifier: identifier) else { return 0 }
        if owner != nil, let held: String = row["domainIdentifier"], try isLive(row["id"]),
            taken.refuse(identifier, heldBy: held, outside: owner) {
            return 0
        }
        try db.cachedStatement(sql: "DELETE FROM item_open WHERE uniqueIdentifier = ?").execute(arguments: [identifier])
        try delete(row)
        return 1
    }

    /// Whether the row `id` is not hidden by a purge.
    private func isLive(_ id: Int64) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT \(PurgedDomains.liveCondition()) FROM item WHERE id = ?"), arguments: [id]) ?? false
    }

    /// The stored row of the item with `identifier`: its id, domain and ranking hint.
    private func storedRow(identifier: String) throws -> Row? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT id, domainIdentifier, rankingHint FROM item WHERE uniqueIdentifier = ?"), arguments: [identifier]
        )
    }

    /// Deletes a row read by ``storedRow(identifier:)``, and its marks.
    private func delete(_ row: Row) throws {
        let id: Int64 = row["id"]
        try db.cachedStatement(sql: "DELETE FROM item_mark WHERE id = ?").execute(arguments: [id])
        try db.cachedStatement(sql: "DELETE FROM item WHERE id = ?").execute(arguments: [id])
    }

    /// Runs the cached statement `sql` with `arguments`, one value for each of its `?` (the statements of this file
    /// bind fixed lists): GRDB binds them without checking them again against the statement, and without nesting a
    /// closure per value (which it does for `execute(arguments:)`: a tenth of an import's time).
    private func run(_ sql: String, _ arguments: StatementArguments) throws {
        let statement = try db.cachedStatement(sql: sql)
        assert((try? statement.validateArguments(arguments)) != nil, "\(sql) takes other arguments than \(arguments)")
        statement.setUncheckedArguments(arguments)
        try statement.execute()
    }

    /// Deletes the rows matching `condition`, and their open counts; returns how many.
    ///
    /// The condition is evaluated once: the ids it selects are gathered in a temporary table (in SQLite's temporary
    /// storage, not the program's memory, however many), then each table deletes by id; nothing is written when
    /// nothing matches, the common end of a run's sweep.
    func delete(where condition: String, arguments: StatementArguments) throws -> Int {
        // Created once a connection: even a `CREATE … IF NOT EXISTS` of a table that exists counts as a schema change,
        // which empties GRDB's cache of prepared statements.
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM temp.sqlite_master WHERE name = 'doomed_item')") != true {
            try db.execute(sql: "CREATE TEMP TABLE doomed_item (id INTEGER PRIMARY KEY)")
        }
        try db.cachedStatement(sql: "INSERT INTO temp.doomed_item SELECT id FROM item WHERE " + condition).execute(arguments: arguments)
        let count = db.changesCount
        guard count > 0 else { return 0 }
        let doomed = "id IN (SELECT id FROM temp.doomed_item)"
        try ItemOpenTable.deleteOpens(ofItemsWhere: doomed, arguments: [], db)
        try ItemMarkTable.deleteMarks(ofItemsWhere: doomed, arguments: [], db)
        try db.cachedStatement(sql: "DELETE FROM item WHERE " + doomed).execute()
        try db.execute(sql: "DELETE FROM temp.doomed_item")
        return count
    }

    /// The columns ``item(from:)`` reads, for a `SELECT` from `item` (the thumbnail's bytes only when asked: a hit
    /// never carries them).
    static func itemColumns(withThumbnailData: Bool) -> String {
        """
        uniqueIdentifier, domainIdentifier, contentType, title, displayName, \(PackedText.selected("contentDescription")), keywords,
            authorNames, contentCreationDate, contentModificationDate, thumbnailURL, \(withThumbnailData ? "thumbnailData" : "NULL AS thumbnailData"),
            contentURL, relatedUniqueIdentifier, rankingHint, expirationDate, access, version, isCurrentVersion
        """
    }

    /// The item a row of ``itemColumns(withThumbnailData:)`` holds, in its first columns (read by position: a name is
    /// looked up among every column of the row, and a search reads a page of hits this way).
    static func item(from row: Row) -> SearchableItem {
        SearchableItem(
            uniqueIdentifier: row[0],
            domainIdentifier: row[1],
            contentType: row[2],
            title: row[3],
            displayName: row[4],
            contentDescription: row[5],
            keywords: KeywordList.decode(row[6]),
            authorNames: KeywordList.decode(row[7]),
            contentCreationDate: (row[8] as Double?).map(Date.init(timeIntervalSince1970:)),
            contentModificationDate: (row[9] as Double?).map(Date.init(timeIntervalSince1970:)),
            thumbnailURL: row[10],
            thumbnailData: row[11],
            contentURL: row[12],
            relatedUniqueIdentifier: row[13],
            rankingHint: row[14],
            access: (row[16] as String?).map(KeywordList.decode),
            version: row[17],
            isCurrentVersion: row[18],
            expirationDate: Date(timeIntervalSince1970: row[15])
        )
    }

    /// How many columns ``itemColumns(withThumbnailData:)`` names.
    static let itemColumnCount = 19

    /// Deletes every row; returns how many.
    func deleteAll() throws -> Int {
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0
        try db.execute(sql: "DELETE FROM item")
        try db.execute(sql: "DELETE FROM search_term")
        try db.execute(sql: "DELETE FROM item_open")
        try db.execute(sql: "DELETE FROM item_mark")
        return count
    }
}
