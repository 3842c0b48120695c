import Foundation
import GRDB
import Indexing
import PluginAPI

/// Writes and deletes item rows and keeps the FTS5 tables in step, inside the caller's transaction.
struct ItemRows {
    let db: Database

    /// Inserts `item`, or replaces whole the row with the same identifier, stamped with `commitNumber`; returns
    /// whether its content was written (`false`: it was stored already).
    ///
    /// An item whose content equals the stored one (what a periodic reindex mostly writes) only renews its
    /// expiration, date and commit number: the full-text index, costly to rewrite, already holds its words. An item
    /// rewritten with the same ranking hint keeps its place in priority order (its id), as on every store.
    @discardableResult
    func upsert(_ item: SearchableItem, expiration: Date, now: Date, commitNumber: Int64) throws -> Bool {
        let keywords = KeywordList.encode(item.keywords), authorNames = KeywordList.encode(item.authorNames)
        var keptID: Int64?
        if let existing = try storedRow(identifier: item.uniqueIdentifier) {
            let id: Int64 = existing["id"]
            if Self.hasSameContent(existing, as: item, keywords: keywords, authorNames: authorNames) {
                try db.cachedStatement(sql: "UPDATE item SET expirationDate = ?, indexedAt = ?, commitNumber = ? WHERE id = ?")
                    .execute(arguments: [expiration.timeIntervalSince1970, now.timeIntervalSince1970, commitNumber, id])
                return false
            }
            try delete(existing)
            if existing["rankingHint"] == item.rankingHint { keptID = id }
            if existing["domainIdentifier"] != item.domainIdentifier {
                // Its opens follow it, so that a purge of its new domain deletes them.
                try db.cachedStatement(sql: "UPDATE item_open SET domainIdentifier = ? WHERE uniqueIdentifier = ?")
                    .execute(arguments: [item.domainIdentifier, item.uniqueIdentifier])
            }
        }
        let id = try keptID ?? nextID(in: ItemPriority(rankingHint: item.rankingHint))
        try db.cachedStatement(sql: """
            INSERT INTO item (id, uniqueIdentifier, domainIdentifier, contentType, title, displayName,
                contentDescription, keywords, authorNames, contentCreationDate, contentModificationDate, thumbnailURL,
                thumbnailData, contentURL, relatedUniqueIdentifier, rankingHint, expirationDate, indexedAt, commitNumber)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                id, item.uniqueIdentifier, item.domainIdentifier, item.contentType, item.title, item.displayName,
                item.contentDescription, keywords, authorNames, item.contentCreationDate?.timeIntervalSince1970,
                item.contentModificationDate?.timeIntervalSince1970, item.thumbnailURL, item.thumbnailData, item.contentURL,
                item.relatedUniqueIdentifier, item.rankingHint, expiration.timeIntervalSince1970, now.timeIntervalSince1970, commitNumber,
            ])
        try changeFullText(.add, id: id) { column in
            switch column {
            case .title: item.title
            case .displayName: item.displayName
            case .keywords: keywords
            case .authorNames: authorNames
            case .contentDescription: item.contentDescription
            }
        }
        return true
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
    func delete(identifier: String) throws -> Int {
        guard let row = try storedRow(identifier: identifier) else { return 0 }
        try db.cachedStatement(sql: "DELETE FROM item_open WHERE uniqueIdentifier = ?").execute(arguments: [identifier])
        try delete(row)
        return 1
    }

    /// The stored row of the item with `identifier`: its id and content.
    private func storedRow(identifier: String) throws -> Row? {
        try Row.fetchOne(
            db.cachedStatement(sql: """
                SELECT id, domainIdentifier, contentType, title, displayName, contentDescription, keywords, authorNames,
                    contentCreationDate, contentModificationDate, thumbnailURL, thumbnailData, contentURL, relatedUniqueIdentifier, rankingHint
                FROM item WHERE uniqueIdentifier = ?
                """),
            arguments: [identifier]
        )
    }

    /// Deletes a row read by ``storedRow(identifier:)``, and its words.
    private func delete(_ row: Row) throws {
        let id: Int64 = row["id"]
        try changeFullText(.remove, id: id) { row[$0.rawValue] }
        try db.cachedStatement(sql: "DELETE FROM item WHERE id = ?").execute(arguments: [id])
    }

    /// Adds or removes the words of the row `id`, whose searchable fields hold `text`, in every full-text table.
    private func changeFullText(_ change: FullTextTable.RowChange, id: Int64, text: (SearchColumn) -> String?) throws {
        for table in FullTextTable.tables {
            try db.cachedStatement(sql: table.statement(change))
                .execute(arguments: StatementArguments([id] + table.columns.map(text)))
        }
    }

    /// Whether the stored row holds exactly `item`'s content (everything but its dates).
    private static func hasSameContent(_ row: Row, as item: SearchableItem, keywords: String, authorNames: String) -> Bool {
        row["domainIdentifier"] == item.domainIdentifier && row["contentType"] == item.contentType
            && row["title"] == item.title && row["displayName"] == item.displayName
            && row["contentDescription"] == item.contentDescription && row["keywords"] == keywords
            && row["authorNames"] == authorNames
            && row["contentCreationDate"] == item.contentCreationDate?.timeIntervalSince1970
            && row["contentModificationDate"] == item.contentModificationDate?.timeIntervalSince1970
            && row["thumbnailURL"] == item.thumbnailURL && row["thumbnailData"] == item.thumbnailData
            && row["contentURL"] == item.contentURL && row["rankingHint"] == item.rankingHint
            && row["relatedUniqueIdentifier"] == item.relatedUniqueIdentifier
    }

    /// Deletes the rows matching `condition` (one statement per table, however many rows), and their open counts;
    /// returns how many.
    func delete(where condition: String, arguments: StatementArguments) throws -> Int {
        try ItemOpenTable.deleteOpens(ofItemsWhere: condition, arguments: arguments, db)
        for table in FullTextTable.tables {
            try db.cachedStatement(sql: table.unindexRowsStatement + " WHERE " + condition).execute(arguments: arguments)
        }
        try db.cachedStatement(sql: "DELETE FROM item WHERE " + condition).execute(arguments: arguments)
        return db.changesCount
    }

    /// The columns ``item(from:)`` reads, for a `SELECT` from `item` (the thumbnail's bytes only when asked: a hit
    /// never carries them).
    static func itemColumns(withThumbnailData: Bool) -> String {
        """
        uniqueIdentifier, domainIdentifier, contentType, title, displayName, contentDescription, keywords, authorNames,
            contentCreationDate, contentModificationDate, thumbnailURL, \(withThumbnailData ? "thumbnailData" : "NULL AS thumbnailData"),
            contentURL, relatedUniqueIdentifier, rankingHint, expirationDate
        """
    }

    /// The item a row of ``itemColumns(withThumbnailData:)`` holds.
    static func item(from row: Row) -> SearchableItem {
        SearchableItem(
            uniqueIdentifier: row["uniqueIdentifier"],
            domainIdentifier: row["domainIdentifier"],
            contentType: row["contentType"],
            title: row["title"],
            displayName: row["displayName"],
            contentDescription: row["contentDescription"],
            keywords: KeywordList.decode(row["keywords"]),
            authorNames: KeywordList.decode(row["authorNames"]),
            contentCreationDate: (row["contentCreationDate"] as Double?).map(Date.init(timeIntervalSince1970:)),
            contentModificationDate: (row["contentModificationDate"] as Double?).map(Date.init(timeIntervalSince1970:)),
            thumbnailURL: row["thumbnailURL"],
            thumbnailData: row["thumbnailData"],
            contentURL: row["contentURL"],
            relatedUniqueIdentifier: row["relatedUniqueIdentifier"],
            rankingHint: row["rankingHint"],
            expirationDate: Date(timeIntervalSince1970: row["expirationDate"])
        )
    }

    /// Deletes every row; returns how many.
    func deleteAll() throws -> Int {
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0
        try db.execute(sql: "DELETE FROM item")
        try db.execute(sql: "DELETE FROM search_term")
        try db.execute(sql: "DELETE FROM item_open")
        for table in FullTextTable.tables {
            try db.execute(sql: table.unindexEverythingStatement)
        }
        return count
    }
}
