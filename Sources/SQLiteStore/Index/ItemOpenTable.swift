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
        CREATE INDEX item_open_day ON item_open(uniqueIdentifier, day);
        """

    /// Adds `tallies` to the counts of the items that are live in the index; drops the others, and a query's new
    /// count past the item's ``OpenTally/maxQueriesPerItemAndDay`` that day.
    static func record(_ tallies: [OpenTally], _ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO item_open (uniqueIdentifier, query, day, domainIdentifier, opens)
            SELECT uniqueIdentifier, :query, :day, domainIdentifier, :opens FROM item
            WHERE uniqueIdentifier = :identifier AND \(PurgedDomains.liveCondition())
                AND (:query = '' OR EXISTS (SELECT 1 FROM item_open WHERE uniqueIdentifier = :identifier AND query = :query AND day = :day)
                    OR (SELECT count(*) FROM item_open WHERE uniqueIdentifier = :identifier AND day = :day AND query <> '') < \(OpenTally.maxQueriesPerItemAndDay))
            ON CONFLICT (uniqueIdentifier, query, day) DO UPDATE SET opens = opens + excluded.opens
            """)
        for tally in OpenTally.merged(tallies) {
            try statement.execute(arguments: ["query": tally.key.query ?? "", "day": tally.key.day, "opens": tally.opens, "identifier": tally.key.identifier])
        }
    }

    /// Sets the counts of `tallies` to their values (a copy following another index's counts, ``SQLiteSearchCopy``),
    /// for the items that are live here; the others are dropped.
    static func replace(_ tallies: [OpenTally], _ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO item_open (uniqueIdentifier, query, day, domainIdentifier, opens)
            SELECT uniqueIdentifier, :query, :day, domainIdentifier, :opens FROM item WHERE uniqueIdentifier = :identifier AND \(PurgedDomains.liveCondition())
            ON CONFLICT (uniqueIdentifier, query, day) DO UPDATE SET opens = excluded.opens
            """)
        for tally in tallies {
            try statement.execute(arguments: ["query": tally.key.query ?? "", "day": tally.key.day, "opens": tally.opens, "identifier": tally.key.identifier])
        }
    }

    /// The lift of each candidate row `ids` from its opens (``Popularity``): one read, nothing when `popularity` is
    /// `nil` or no item was ever opened.
    static func lifts(of ids: [Int64], popularity: Popularity?, _ db: Database) throws -> [Int64: Double] {
        guard let popularity, !ids.isEmpty, try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM item_open)")) == true else {
            return [:]
        }
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT item.id, item_open.query <> '', item_open.day, item_open.opens
                FROM item JOIN item_open ON item_open.uniqueIdentifier = item.uniqueIdentifier
                WHERE item.id IN (SELECT value FROM json_each(?)) AND item_open.query IN ('', ?) AND item_open.day >= ?
                """),
            arguments: [RowIDList.json(ids), popularity.query ?? "", popularity.firstDay]
        )
        var opens: [Popularity.Opens] = []
        while let row = try rows.next() {
            opens.append(Popularity.Opens(id: row[0], forQuery: row[1], day: row[2], opens: row[3]))
        }
        return popularity.lifts(opens)
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
