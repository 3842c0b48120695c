import Indexing
import Logging
import PostgresNIO

/// The search vocabulary (``SearchVocabulary``) in PostgreSQL: `search_term`, one row per word, compared bytewise
/// (`COLLATE "C"`) so that the words a typed word may stand for are one range of its primary key, as in SQLite.
/// GIN indexes cannot list their words, and `ts_stat` reads every row.
enum PostgresSearchTerms {
    /// Adds `words` (those already there are left).
    static func insert(_ words: Set<String>, _ connection: PostgresConnection, logger: Logger) async throws {
        guard !words.isEmpty else { return }
        try await connection.query(
            "INSERT INTO search_term (term) SELECT unnest(\(Array(words))::text[]) ON CONFLICT DO NOTHING", logger: logger
        )
    }

    /// Creates the table and adds the words of every stored item, 1,000 items a query: the migration that brings it.
    @Sendable static func createAndFill(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(#"CREATE TABLE search_term (term TEXT COLLATE "C" PRIMARY KEY)"#, logger: logger)
        var after = Int64.min
        while true {
            let rows = try await connection.query(
                "SELECT id, title, display_name, keywords FROM item WHERE id > \(after) ORDER BY id LIMIT 1000", logger: logger
            )
            var words = Set<String>(), last: Int64?
            for try await (id, title, displayName, keywords) in rows.decode((Int64, String?, String?, String).self) {
                SearchVocabulary.insertWords(title: title, displayName: displayName, keywords: KeywordList.decode(keywords), into: &words)
                last = id
            }
            guard let last else { break }
            try await insert(words, connection, logger: logger)
            after = last
        }
    }
}
