import GRDB

/// `item_mark`: the commit that last sent each item without changing it, kept apart from the item's row.
///
/// A full run sends every item; most arrive unchanged, and all of them must be told from the items the run did not
/// send (its sweep deletes those). Stamping the commit number on each item's row would rewrite every row and index
/// entry of the domain; a mark is one narrow row of its own. An item's last commit is its row's or its mark's,
/// whichever is later. A purge covers marks as it covers rows (all of them are older than it), and a row hidden by
/// a purge is never marked: it is written again whole.
enum ItemMarkTable {
    static let createTable = "CREATE TABLE item_mark (id INTEGER PRIMARY KEY, commitNumber INTEGER NOT NULL)"

    /// Marks the items of rows `ids` as sent by commit `number`, in one statement.
    static func mark(_ ids: Set<Int64>, commitNumber number: Int64, _ db: Database) throws {
        guard !ids.isEmpty else { return }
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO item_mark (id, commitNumber) SELECT value, ? FROM json_each(?)")
            .execute(arguments: [number, RowIDList.json(Array(ids))])
    }

    /// The SQL condition "the row `item` was last written or sent by commit `?` or an earlier one" (one argument: the
    /// commit number, after those of `item.commitNumber <= ?`).
    static let sentThroughCondition = "item.commitNumber <= ? AND NOT EXISTS (SELECT 1 FROM item_mark m WHERE m.id = item.id AND m.commitNumber > ?)"

    /// Deletes the marks of the rows matching `condition` (on `item`), before the rows go.
    static func deleteMarks(ofItemsWhere condition: String, arguments: StatementArguments, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM item_mark WHERE id IN (SELECT id FROM item WHERE \(condition))").execute(arguments: arguments)
    }
}
