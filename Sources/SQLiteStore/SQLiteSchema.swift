import GRDB
import Indexing

/// The database file's tables, the index's and the scheduler's, created and upgraded by one migrator so that every
/// file reaches the same schema. The migrations keep the identifiers earlier releases wrote (`v1-index` …,
/// `v1-scheduler-state` …), so a file written by any of them upgrades in place.
///
/// `item` holds the items, each stamped with the number of the commit that last wrote it (`index_commit`
/// counts commits), so "the items of a domain not written since commit N" is exact whatever the clocks do.
/// Its words are indexed by the search postings, beside the file (``SearchPostings``). `batch_client_state` holds
/// each batch name's last client state; `purged_domain` the purges whose rows are not all reclaimed
/// (``PurgedDomains``); `search_term` the words typos are corrected to (``SearchTermTable``); `item_open` the opens of
/// results (``ItemOpenTable``), `search_query` the queries searched (``SearchQueryTable``); `search_key` the search keys (``SearchKey``).
/// `unit_state` holds one row per unit, `run_history` the last runs.
///
/// An item's `id` is its ``ItemPriority``: the postings hold each word's matches in id order, so a search can take
/// the highest-priority matches first and stop early instead of scoring every match.
enum SQLiteSchema {
    /// Every migration, in the order files met them: the index's first tables, the scheduler's, then the rest.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        registerIndexTables(in: &migrator)
        registerSchedulerTables(in: &migrator)
        registerLaterChanges(in: &migrator)
        registerRecentChanges(in: &migrator)
        return migrator
    }

    /// The index's tables, as the first releases made them (`v1-index` … `v5-search-vocabulary`).
    private static func registerIndexTables(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v1-index") { db in
            try db.execute(sql: """
                CREATE TABLE item (
                    id INTEGER PRIMARY KEY,
                    uniqueIdentifier TEXT NOT NULL UNIQUE,
                    domainIdentifier TEXT NOT NULL,
                    contentType TEXT NOT NULL,
                    title TEXT,
                    displayName TEXT,
                    contentDescription TEXT,
                    keywords TEXT NOT NULL,
                    thumbnailURL TEXT,
                    thumbnailData BLOB,
                    contentURL TEXT,
                    rankingHint INTEGER,
                    expirationDate REAL NOT NULL,
                    indexedAt REAL NOT NULL,
                    commitNumber INTEGER NOT NULL
                );
                CREATE INDEX item_domain ON item(domainIdentifier);
                CREATE INDEX item_expiration ON item(expirationDate);
                \(FullTextTable.beforeOneTable(columns: FullTextTable.columnsBeforeAuthorNames)[0].createStatement);
                CREATE TABLE index_commit (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    lastNumber INTEGER NOT NULL
                );
                INSERT INTO index_commit (id, lastNumber) VALUES (1, 0);
                CREATE TABLE batch_client_state (
                    batchName TEXT PRIMARY KEY,
                    state BLOB NOT NULL,
                    committedAt REAL NOT NULL
                );
                """)
        }
        migrator.registerMigration("v2-best-field-tables") { db in
            for table in FullTextTable.beforeOneTable(columns: FullTextTable.columnsBeforeAuthorNames).dropFirst() {
                try db.execute(sql: table.createStatement)
                try db.execute(sql: table.indexAllRowsStatement)
            }
        }
        migrator.registerMigration("v3-purged-domains") { db in
            try db.execute(sql: PurgedDomains.createTable)
            // Domain and commit number in one index: what a purge, a reclaim step and a run's stale rows ask is
            // answered from the index alone, without reading a row (a purge of 500k items read them all: 40 s cold).
            try db.execute(sql: "DROP INDEX item_domain; CREATE INDEX item_domain ON item(domainIdentifier, commitNumber)")
        }
        migrator.registerMigration("v4-rowid-only-full-text") { db in
            // The tables are rebuilt without columns and positions (see ``FullTextTable``): on a large index a
            // one-time rebuild at the first open after the upgrade, about two minutes per million items.
            for table in FullTextTable.beforeOneTable(columns: FullTextTable.columnsBeforeAuthorNames) {
                try db.execute(sql: "DROP TABLE \(table.name)")
                try db.execute(sql: table.createStatement)
                try db.execute(sql: table.indexAllRowsStatement)
            }
        }
        migrator.registerMigration("v5-search-vocabulary") { db in
            try db.execute(sql: SearchTermTable.createTable)
            try SearchTermTable.insertWordsOfEveryItem(db)
        }
    }

    /// The scheduler's tables (`v1-scheduler-state` … `v3-sync-state`), which the store once kept in a file of its own.
    private static func registerSchedulerTables(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v1-scheduler-state") { db in
            try db.execute(sql: """
                CREATE TABLE unit_state (
                    unit TEXT PRIMARY KEY,
                    source TEXT NOT NULL,
                    domain TEXT NOT NULL,
                    lastSuccessAt REAL,
                    fingerprint TEXT,
                    itemCount INTEGER,
                    lastAttemptAt REAL,
                    lastResult TEXT,
                    lastError TEXT,
                    failures INTEGER NOT NULL DEFAULT 0,
                    retryAt REAL
                );
                CREATE TABLE run_history (
                    id INTEGER PRIMARY KEY,
                    unit TEXT NOT NULL,
                    source TEXT NOT NULL,
                    domain TEXT NOT NULL,
                    startedAt REAL NOT NULL,
                    finishedAt REAL NOT NULL,
                    decision TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    indexed INTEGER NOT NULL,
                    deleted INTEGER NOT NULL,
                    rejected INTEGER NOT NULL,
                    error TEXT
                );
                CREATE INDEX run_history_source ON run_history(source, id);
                """)
        }
        migrator.registerMigration("v2-runner-and-forced-runs") { db in
            try db.execute(sql: """
                ALTER TABLE unit_state ADD COLUMN runner TEXT;
                ALTER TABLE unit_state ADD COLUMN forcedRun INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE run_history ADD COLUMN forced INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX run_history_unit ON run_history(unit, id);
                """)
        }
        migrator.registerMigration("v3-sync-state") { db in
            try db.execute(sql: """
                ALTER TABLE unit_state ADD COLUMN runMode TEXT;
                ALTER TABLE unit_state ADD COLUMN lastIncrementalAt REAL;
                ALTER TABLE unit_state ADD COLUMN syncState BLOB;
                ALTER TABLE unit_state ADD COLUMN syncStateAt REAL;
                ALTER TABLE run_history ADD COLUMN mode TEXT NOT NULL DEFAULT 'full';
                """)
        }
    }

    /// What came after both (`v6-item-opens` to `v14`): one sequence for the whole file.
    private static func registerLaterChanges(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6-item-opens") { db in
            try db.execute(sql: ItemOpenTable.createTable)
        }
        migrator.registerMigration("v7-search-queries") { db in
            try db.execute(sql: SearchQueryTable.createTable)
        }
        migrator.registerMigration("v8-authors-dates-and-related-items") { db in
            try db.execute(sql: """
                ALTER TABLE item ADD COLUMN authorNames TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE item ADD COLUMN contentCreationDate REAL;
                ALTER TABLE item ADD COLUMN contentModificationDate REAL;
                ALTER TABLE item ADD COLUMN relatedUniqueIdentifier TEXT;
                """)
            // Author names are searched: the tables of every field and of the best fields are made again with
            // them, a one-time rebuild at the first open after the upgrade (docs/search.md gives its time).
            for table in FullTextTable.beforeOneTable(columns: FullTextTable.columnsWithAuthorNames) where table.columns.contains(.authorNames) {
                try db.execute(sql: "DROP TABLE \(table.name)")
                try db.execute(sql: table.createStatement)
                try db.execute(sql: table.indexAllRowsStatement)
            }
        }
        migrator.registerMigration("v9-content-digests") { db in
            // Rows stored before hold none: the first run that writes each rewrites it whole, then keeps its digest.
            try db.execute(sql: "ALTER TABLE item ADD COLUMN contentDigest INTEGER")
            try db.execute(sql: ItemMarkTable.createTable)
        }
        migrator.registerMigration("v10-source-pauses") { db in
            try db.execute(sql: "CREATE TABLE source_pause (source TEXT PRIMARY KEY, pausedAt DOUBLE NOT NULL, pausedBy TEXT NOT NULL)")
        }
        migrator.registerMigration("v11-cancel-requests") { db in
            try db.execute(sql: "ALTER TABLE unit_state ADD COLUMN cancelRequestedBy TEXT")
        }
        migrator.registerMigration("v12-due-index") { db in
            // Rows from before are unsettled: the first pass decides every unit, as before, and settles them.
            try db.execute(sql: """
                ALTER TABLE unit_state ADD COLUMN settledUntil REAL;
                ALTER TABLE unit_state ADD COLUMN settledUnder TEXT;
                ALTER TABLE index_commit ADD COLUMN outsideChanges INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE pass_settlement (id INTEGER PRIMARY KEY CHECK (id = 1), signature TEXT NOT NULL, outsideChanges INTEGER NOT NULL);
                """)
        }
        migrator.registerMigration("v13-item-commit-index") { db in
            // The rows each commit wrote: what brings the search postings (kept in memory) up to a later commit.
            try db.execute(sql: "CREATE INDEX item_commit ON item(commitNumber)")
        }
        migrator.registerMigration("v14-one-full-text-table") { db in
            // Releases from this one to `v22-no-full-text-table` replaced the three tables with one FTS5 table
            // `item_fts` (every field, `prefix='1 2 3', detail=column`), which the later migration drops: a file that
            // reaches this one now drops the three and makes none.
            for table in FullTextTable.beforeOneTable(columns: FullTextTable.columnsWithAuthorNames) {
                try db.execute(sql: "DROP TABLE \(table.name)")
            }
        }
    }

    /// What came next (`v15-restorable-purges` onwards), in the same sequence.
    private static func registerRecentChanges(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v15-restorable-purges") { db in
            // Purges from before are not restorable: NULL.
            try db.execute(sql: "ALTER TABLE purged_domain ADD COLUMN restorableUntil REAL")
        }
        migrator.registerMigration("v16-search-keys") { db in
            // What each key may do; never its secret (``SearchKey``). `domains` is a JSON array.
            try db.execute(sql: """
                CREATE TABLE search_key (
                    uid TEXT PRIMARY KEY, name TEXT NOT NULL, domains TEXT NOT NULL, expires REAL, createdAt REAL NOT NULL
                )
                """)
        }
        migrator.registerMigration("v17-item-access") { db in
            // The groups that may find an item (a JSON array), NULL for whoever may search its domain: every row before.
            try db.execute(sql: "ALTER TABLE item ADD COLUMN access TEXT")
        }
        migrator.registerMigration("v18-item-version") { db in
            // The documentation version an item belongs to, and whether it is the current one: every row before has
            // none, and is found by a search that names no version.
            try db.execute(sql: "ALTER TABLE item ADD COLUMN version TEXT")
            try db.execute(sql: "ALTER TABLE item ADD COLUMN isCurrentVersion INTEGER NOT NULL DEFAULT 1")
        }
        migrator.registerMigration("v19-run-rejections") { db in
            // The first rejections of a run, as JSON: NULL for runs before, and for runs that rejected nothing.
            try db.execute(sql: "ALTER TABLE run_history ADD COLUMN rejections TEXT")
        }
        migrator.registerMigration("v20-saved-postings") { db in
            // The token of the search postings last saved beside the file: a file whose token differs is not this
            // history's (SavedPostingsFile).
            try db.execute(sql: "ALTER TABLE index_commit ADD COLUMN savedPostings TEXT NOT NULL DEFAULT ''")
        }
        migrator.registerMigration("v21-text-dictionary") { db in
            // The dictionaries items' descriptions are packed with (PackedText): rows name theirs by id, so a
            // dictionary is never changed nor deleted.
            try db.execute(sql: """
                CREATE TABLE text_dictionary (
                    id INTEGER PRIMARY KEY,
                    bytes BLOB NOT NULL,
                    samples INTEGER NOT NULL,
                    trainedAt REAL NOT NULL
                )
                """)
        }
        migrator.registerMigration("v22-no-full-text-table") { db in
            // The search postings answer every search (``SearchPostings``): the FTS5 table, about half the file at a
            // million items, is dropped in this migration's transaction (a second or two a million items; a crash
            // leaves it, and the next open drops it). Its pages are free for later writes; `sqlite3 FILE VACUUM`, with
            // the service stopped, gives them back to the disk (docs/operating.md).
            try db.execute(sql: "DROP TABLE IF EXISTS item_fts")
        }
    }

    /// Fails with a clear message when the host's SQLite lacks FTS5.
    static func requireFullTextSearch(_ db: Database) throws {
        do {
            try db.execute(sql: "CREATE VIRTUAL TABLE temp.fts5_probe USING fts5(x); DROP TABLE temp.fts5_probe")
        } catch {
            let version = try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "unknown"
            throw IndexError.fullTextSearchUnavailable(sqliteVersion: version)
        }
    }
}
