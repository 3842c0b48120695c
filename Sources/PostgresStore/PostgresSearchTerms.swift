import Indexing
import Logging
import PostgresNIO

/// The search vocabulary (``SearchVocabulary``) in PostgreSQL: `search_term`, one row per word, compared bytewise
/// (`COLLATE "C"`) so that the words a typed word may stand for are one range of its primary key, as in SQLite.
/// GIN indexes cannot list their words, and `ts_stat` reads every row.
enum PostgresSearchTerms {
    /// Adds `words` (those already there are left), in byte order: replicas committing batches at once then take
    /// the rows' locks in one order, and never wait on each other in a cycle (a deadlock, one batch refused).
    static func insert(_ words: Set<String>, _ connection: PostgresConnection, logger: Logger) async throws {
        guard !words.isEmpty else { return }
        let ordered = words.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        try await connection.checkedQuery(
            """
            INSERT INTO search_term (term) SELECT word FROM unnest(\(ordered)::text[]) WITH ORDINALITY AS w(word, position)
            ORDER BY position ON CONFLICT DO NOTHING
            """,
            logger: logger
        )
    }

    /// Creates the table and adds the words of every stored item, 1,000 items a query: the migration that brings it.
    @Sendable static func createAndFill(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.checkedQuery(#"CREATE TABLE search_term (term TEXT COLLATE "C" PRIMARY KEY)"#, logger: logger)
        var after = Int64.min
        while true {
            let rows = try await connection.checkedQuery(
                "SELECT id, title, display_name, keywords FROM item WHERE id > \(after) ORDER BY id LIMIT 1000", logger: logger
            )
            var words = Set<String>(), last: Int64?
            for try await (id, title, displayName, keywords) in rows.decode((Int64, String?, String?, String).self) {
                SearchVocabulary.insertWords(title: title, displayName: displayName, names: KeywordList.decode(keywords), into: &words)
                last = id
            }
            guard let last else { break }
            try await insert(words, connection, logger: logger)
            after = last
        }
    }
}
