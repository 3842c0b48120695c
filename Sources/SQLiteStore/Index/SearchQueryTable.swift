import GRDB
import Indexing

/// `search_query`: how often each query (folded) was searched each day, and how often it found nothing.
enum SearchQueryTable {
    static let createTable = """
        CREATE TABLE search_query (
            query TEXT NOT NULL,
            day INTEGER NOT NULL,
            searches INTEGER NOT NULL,
            withoutHits INTEGER NOT NULL,
            PRIMARY KEY (query, day)
        ) WITHOUT ROWID;
        CREATE INDEX search_query_day ON search_query(day);
        """

    /// Adds `tallies` to the counts.
    static func record(_ tallies: [SearchTally], _ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO search_query (query, day, searches, withoutHits) VALUES (?, ?, ?, ?)
            ON CONFLICT (query, day) DO UPDATE SET searches = searches + excluded.searches, withoutHits = withoutHits + excluded.withoutHits
            """)
        for tally in SearchTally.merged(tallies) {
            try statement.execute(arguments: [tally.query, tally.day, tally.searches, tally.withoutHits])
        }
    }
}
