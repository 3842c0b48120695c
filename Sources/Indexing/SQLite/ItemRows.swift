import Foundation
import GRDB
import PluginAPI

/// Writes and deletes item rows and keeps the FTS5 table in step, inside the caller's transaction.
struct ItemRows {
    let db: Database

    private static let ftsDelete = """
        INSERT INTO item_fts(item_fts, rowid, \(IndexSchema.textColumns))
        SELECT 'delete', id, \(IndexSchema.textColumns) FROM item
        """

    /// Inserts `item`, or replaces whole the row with the same identifier, stamped with `commitNumber`.
    ///
    /// An item whose content equals the stored one (what a periodic reindex mostly writes) only renews its
    /// expiration, date and commit number: the full-text index, costly to rewrite, already holds its words.
    func upsert(_ item: SearchableItem, expiration: Date, now: Date, commitNumber: Int64) throws {
        let keywords = KeywordList.encode(item.keywords)
        let existing = try Row.fetchOne(
            db.cachedStatement(sql: """
                SELECT id, domainIdentifier, contentType, title, displayName, contentDescription, keywords,
                    thumbnailURL, thumbnailData, contentURL, rankingHint
                FROM item WHERE uniqueIdentifier = ?
                """),
            arguments: [item.uniqueIdentifier]
        )
        if let existing {
            let id: Int64 = existing["id"]
            if Self.hasSameContent(existing, as: item, keywords: keywords) {
                try db.cachedStatement(sql: "UPDATE item SET expirationDate = ?, indexedAt = ?, commitNumber = ? WHERE id = ?")
                    .execute(arguments: [expiration.timeIntervalSince1970, now.timeIntervalSince1970, commitNumber, id])
                return
            }
            _ = try delete(where: "id = ?", arguments: [id])
        }
        let band = ItemPriority(rankingHint: item.rankingHint)
        let last = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT max(id) FROM item WHERE id BETWEEN ? AND ?"),
            arguments: [band.firstIdentifier, band.lastIdentifier]
        )
        let id = (last ?? band.firstIdentifier - 1) + 1
        try db.cachedStatement(sql: """
            INSERT INTO item (id, uniqueIdentifier, domainIdentifier, contentType, title, displayName,
                contentDescription, keywords, thumbnailURL, thumbnailData, contentURL, rankingHint,
                expirationDate, indexedAt, commitNumber)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                id, item.uniqueIdentifier, item.domainIdentifier, item.contentType, item.title, item.displayName,
                item.contentDescription, keywords, item.thumbnailURL, item.thumbnailData, item.contentURL,
                item.rankingHint, expiration.timeIntervalSince1970, now.timeIntervalSince1970, commitNumber,
            ])
        try db.cachedStatement(sql: "INSERT INTO item_fts(rowid, \(IndexSchema.textColumns)) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [id, item.title, item.displayName, keywords, item.contentDescription])
    }

    /// Whether the stored row holds exactly `item`'s content (everything but its dates).
    private static func hasSameContent(_ row: Row, as item: SearchableItem, keywords: String) -> Bool {
        row["domainIdentifier"] == item.domainIdentifier && row["contentType"] == item.contentType
            && row["title"] == item.title && row["displayName"] == item.displayName
            && row["contentDescription"] == item.contentDescription && row["keywords"] == keywords
            && row["thumbnailURL"] == item.thumbnailURL && row["thumbnailData"] == item.thumbnailData
            && row["contentURL"] == item.contentURL && row["rankingHint"] == item.rankingHint
    }

    /// Deletes the rows matching `condition`; returns how many.
    func delete(where condition: String, arguments: StatementArguments) throws -> Int {
        try db.cachedStatement(sql: Self.ftsDelete + " WHERE " + condition).execute(arguments: arguments)
        try db.cachedStatement(sql: "DELETE FROM item WHERE " + condition).execute(arguments: arguments)
        return db.changesCount
    }

    /// Deletes every row; returns how many.
    func deleteAll() throws -> Int {
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0
        try db.execute(sql: "DELETE FROM item; INSERT INTO item_fts(item_fts) VALUES ('delete-all')")
        return count
    }
}
