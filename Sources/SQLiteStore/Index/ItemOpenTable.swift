import Foundation
import GRDB
import Indexing

/// `item_open`: how often each item was opened, by day and by query (`''` for its count over every query). Rows
/// carry the item's domain so that a purge deletes its opens at once, without reading the domain's items.
enum ItemOpenTable {
    static let createTable = """
        CREATE TABLE item_open (
            uniqueIdentifier TEXT NOT NULL,
            query TEXT NOT NULL,
            day INTEGER NOT NULL,
            domainIdentifier TEXT NOT NULL,
            opens INTEGER NOT NULL,
            PRIMARY KEY (uniqueIdentifier, query, day)
        ) WITHOUT ROWID;
        CREATE INDEX item_open_domain ON item_open(domainIdentifier);
        """

    /// Adds `tallies` to the counts of the items that are live in the index; drops the others.
    static func record(_ tallies: [OpenTally], _ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO item_open (uniqueIdentifier, query, day, domainIdentifier, opens)
            SELECT uniqueIdentifier, ?, ?, domainIdentifier, ? FROM item WHERE uniqueIdentifier = ? AND \(PurgedDomains.liveCondition())
            ON CONFLICT (uniqueIdentifier, query, day) DO UPDATE SET opens = opens + excluded.opens
            """)
        for tally in tallies {
            try statement.execute(arguments: [tally.key.query ?? "", tally.key.day, tally.opens, tally.key.identifier])
        }
    }

    /// The counts of the item `identifier`.
    static func tallies(identifier: String, _ db: Database) throws -> [OpenTally] {
        try Row.fetchAll(db, sql: "SELECT query, day, opens FROM item_open WHERE uniqueIdentifier = ? ORDER BY query, day", arguments: [identifier]).map { row in
            let query: String = row["query"]
            return OpenTally(key: OpenTally.Key(day: row["day"], identifier: identifier, query: query.isEmpty ? nil : query), opens: row["opens"])
        }
    }

    /// Deletes the counts of the item rows matching `condition`, before they are deleted; nothing to read when no
    /// item was ever opened.
    static func deleteOpens(ofItemsWhere condition: String, arguments: StatementArguments, _ db: Database) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item_open)") == true else { return }
        try db.cachedStatement(sql: "DELETE FROM item_open WHERE uniqueIdentifier IN (SELECT uniqueIdentifier FROM item WHERE \(condition))")
            .execute(arguments: arguments)
    }
}
