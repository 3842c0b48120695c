import Foundation
import GRDB
import GRDBSQLite
import Indexing
import PluginAPI

/// How a search reads rows: the columns each step selects and what it makes of them.
enum SearchRows {
    /// The page an item belongs to (``SearchDistinct/page(domain:related:unique:)``).
    static let pageColumn = "item.domainIdentifier || ' ' || coalesce(item.relatedUniqueIdentifier, item.uniqueIdentifier)"

    /// The columns ``candidate(_:_:)`` reads, after one column of the caller's: the searchable fields in ``SearchColumn`` order
    /// from the third.
    static let candidateColumns =
        "item.id, \(SearchColumn.allCases.map(\.selected).joined(separator: ", ")), item.rankingHint, \(pageColumn)"

    /// The candidate the current row of `statement` (`row`, of ``candidateColumns`` from its second column) holds: the
    /// fields' text is copied from SQLite into the candidate, without a string for each. The text is read as GRDB reads
    /// a string, up to its first NUL (items holding one are refused when written); it is not checked for UTF-8, which
    /// only a file written by other tools could lack: the scorer reads bad bytes as U+FFFD, as `String` does, but cuts
    /// a long field before (``RelevanceScore``), where a string would be cut after.
    static func candidate(_ row: Row, _ statement: Statement) -> CandidateRanking.Candidate {
        let sqliteStatement = statement.sqliteStatement
        return CandidateRanking.Candidate(id: row[1], rankingHint: row[7], page: row[8]) { column in
            guard let text = sqlite3_column_text(sqliteStatement, CInt(2 + column.position)) else { return nil }
            return UnsafeBufferPointer(start: text, count: strlen(UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self)))
        }
    }

    /// The columns ``record(_:_:in:)`` reads: the id, the searchable fields in ``SearchColumn`` order, the ranking hint,
    /// the page and the commit that wrote the row.
    static let recordColumns = "id, \(SearchColumn.allCases.map(\.selected).joined(separator: ", ")), rankingHint, \(pageColumn), commitNumber"

    /// Records the current row of `statement` (`row`, of ``recordColumns``) in `records`, its fields' text read as
    /// ``candidate(_:_:)`` reads it.
    static func record(_ row: Row, _ statement: Statement, in records: inout CandidateRecords.Builder) {
        let sqliteStatement = statement.sqliteStatement
        records.add(id: row[0], commitNumber: row[8], rankingHint: row[6], page: row[7]) { column in
            guard let text = sqlite3_column_text(sqliteStatement, CInt(1 + column.position)) else { return nil }
            return UnsafeBufferPointer(start: text, count: strlen(UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self)))
        }
    }

    /// Whether the text of row `id` in `columns`, read whole, satisfies `match` (``WordMatch/isSatisfied(byWordsOf:)``):
    /// what a row rewritten since the postings were built is checked with. Few are, so each is read alone.
    static func row(_ id: Int64, holds match: WordMatch, in columns: [SearchColumn], _ db: Database) throws -> Bool {
        let statement = try db.cachedStatement(sql: "SELECT \(SearchColumn.allCases.map(\.selected).joined(separator: ", ")) FROM item WHERE id = ?")
        guard let row = try Row.fetchOne(statement, arguments: [id]) else { return false }
        return match.isSatisfied(byWordsOf: columns.map { row[$0.position] })
    }

    /// The candidates of rows `ids` (those that exist), whatever the filter.
    static func candidates(_ db: Database, ids: [Int64]) throws -> [CandidateRanking.Candidate] {
        let statement = try db.cachedStatement(sql: "SELECT NULL, \(candidateColumns) FROM item WHERE id IN (SELECT value FROM json_each(?))")
        let rows = try Row.fetchCursor(statement, arguments: [RowIDList.json(ids)])
        var candidates: [CandidateRanking.Candidate] = []
        while let row = try rows.next() { candidates.append(candidate(row, statement)) }
        return candidates
    }

    /// The columns ``walked(_:)`` reads, after one column of the caller's.
    static let walkedColumns = "item.id, item.contentCreationDate, item.domainIdentifier, item.contentType, item.version, \(pageColumn)"
    /// How many columns ``walkedColumns`` names.
    static let walkedColumnCount = 6

    /// The match a row of ``walkedColumns`` holds (from its second column).
    static func walked(_ row: Row) -> WalkedMatch {
        WalkedMatch(id: row[1], created: row[2], domain: row[3], contentType: row[4], version: row[5], page: row[6])
    }

    /// The items of a page of hits (the statement is prepared once per connection).
    private static let hitsQuery =
        "SELECT \(ItemRows.itemColumns(withThumbnailData: false)), id FROM item WHERE id IN (SELECT value FROM json_each(?))"

    /// The hits for a ranked page of item identifiers and scores, in the same order.
    static func hits(_ db: Database, for page: [(id: Int64, score: Double)]) throws -> [SearchHit] {
        // Each item is decoded from the statement's row as it is stepped (a fetched array would copy every value first).
        let rows = try Row.fetchCursor(db.cachedStatement(sql: hitsQuery), arguments: [RowIDList.json(page.map(\.id))])
        var itemsByID: [Int64: SearchableItem] = [:]
        while let row = try rows.next() { itemsByID[row[ItemRows.itemColumnCount]] = ItemRows.item(from: row) }
        return page.compactMap { id, score in itemsByID[id].map { SearchHit($0, score: score) } }
    }
}
