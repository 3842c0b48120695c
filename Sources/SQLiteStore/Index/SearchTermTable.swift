import GRDB
import Indexing

/// The search vocabulary (``SearchVocabulary``) in the database file: `search_term`, one row per word, in byte
/// order, so that the words a typed word may stand for are one range of its primary key.
///
/// FTS5 lists its own terms (`fts5vocab`), but only by walking every term's matches to count them: 169 ms for
/// the words starting with one letter of a 100k-item index, ten times that at 1M. This table answers the same
/// range in well under a millisecond.
enum SearchTermTable {
    static let createTable = "CREATE TABLE search_term (term TEXT PRIMARY KEY) WITHOUT ROWID"

    /// Adds `words` (those already there are left).
    static func insert(_ words: Set<String>, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO search_term (term) VALUES (?)")
        for word in words { try statement.execute(arguments: [word]) }
    }

    /// Adds the words of every stored item: the vocabulary of an index written before the table existed.
    static func insertWordsOfEveryItem(_ db: Database) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT title, displayName, keywords FROM item")
        var words = Set<String>()
        while let row = try rows.next() {
            SearchVocabulary.insertWords(title: row[0], displayName: row[1], names: KeywordList.decode(row[2]), into: &words)
            if words.count >= 10_000 {
                try insert(words, db)
                words.removeAll(keepingCapacity: true)
            }
        }
        try insert(words, db)
    }

    /// The words each lookup names, in byte order.
    static func words(for lookups: [TypoCorrector.Lookup], _ db: Database) throws -> [[String]] {
        let statement = try db.cachedStatement(
            sql: "SELECT term FROM search_term WHERE term >= ? AND term < ? AND length(term) >= ? ORDER BY term LIMIT ?"
        )
        return try lookups.map { lookup in
            try String.fetchAll(statement, arguments: [lookup.lower, lookup.upper, lookup.minimumLetters, TypoTolerance.maxWordsRead])
        }
    }
}
