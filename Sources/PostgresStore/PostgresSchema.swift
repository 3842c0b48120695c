import Logging
import PostgresNIO

/// The store's tables in PostgreSQL, created and upgraded by migrations that run when a replica opens the
/// store. They run in one transaction under an advisory lock, so replicas starting together apply each migration
/// once and in order; a replica that finds them applied reads one row and moves on.
///
/// `item.id` is the item's priority (``ItemPriority`` band, then a sequence): searches take matches in `id` order.
/// `words_*` are the folded words of its fields (see ``ItemWords``), with GIN indexes for prefix queries;
/// `search_term` the words typos are corrected to (``PostgresSearchTerms``). Domains
/// compare bytewise (`COLLATE "C"`), so "a domain and everything under it" is one index range, as in SQLite.
enum PostgresSchema {
    /// The advisory lock key of migrations (an arbitrary constant of this program).
    static let migrationLock: Int64 = 0x5265_696E_6465_7831

    static let migrations: [PostgresMigration] = [
        .statements("v1-index-and-state", [
            """
            CREATE TABLE index_commit (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                last_number BIGINT NOT NULL
            )
            """,
            "INSERT INTO index_commit (id, last_number) VALUES (1, 0)",
            "CREATE SEQUENCE item_sequence",
            """
            CREATE TABLE item (
                id BIGINT PRIMARY KEY,
                unique_identifier TEXT NOT NULL UNIQUE,
                domain_identifier TEXT COLLATE "C" NOT NULL,
                content_type TEXT NOT NULL,
                title TEXT,
                display_name TEXT,
                content_description TEXT,
                keywords TEXT NOT NULL,
                thumbnail_url TEXT,
                thumbnail_data BYTEA,
                content_url TEXT,
                ranking_hint INTEGER,
                expiration_date DOUBLE PRECISION NOT NULL,
                indexed_at DOUBLE PRECISION NOT NULL,
                commit_number BIGINT NOT NULL,
                words_all TSVECTOR NOT NULL,
                words_best TSVECTOR NOT NULL,
                words_names TSVECTOR NOT NULL
            )
            """,
            "CREATE INDEX item_domain ON item (domain_identifier, commit_number)",
            "CREATE INDEX item_expiration ON item (expiration_date)",
            "CREATE INDEX item_words_all ON item USING GIN (words_all)",
            "CREATE INDEX item_words_best ON item USING GIN (words_best)",
            "CREATE INDEX item_words_names ON item USING GIN (words_names)",
            """
            CREATE TABLE batch_client_state (
                batch_name TEXT PRIMARY KEY,
                state BYTEA NOT NULL,
                committed_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE unit_state (
                unit TEXT PRIMARY KEY,
                source TEXT NOT NULL,
                domain TEXT COLLATE "C" NOT NULL,
                last_success_at DOUBLE PRECISION,
                fingerprint TEXT,
                item_count INTEGER,
                last_attempt_at DOUBLE PRECISION,
                last_result TEXT,
                last_error TEXT,
                failures INTEGER NOT NULL DEFAULT 0,
                retry_at DOUBLE PRECISION,
                runner TEXT,
                forced_run BOOLEAN NOT NULL DEFAULT FALSE
            )
            """,
            """
            CREATE TABLE run_history (
                id BIGSERIAL PRIMARY KEY,
                unit TEXT NOT NULL,
                source TEXT NOT NULL,
                domain TEXT NOT NULL,
                started_at DOUBLE PRECISION NOT NULL,
                finished_at DOUBLE PRECISION NOT NULL,
                decision TEXT NOT NULL,
                reason TEXT NOT NULL,
                indexed INTEGER NOT NULL,
                deleted INTEGER NOT NULL,
                rejected INTEGER NOT NULL,
                error TEXT,
                forced BOOLEAN NOT NULL DEFAULT FALSE
            )
            """,
            "CREATE INDEX run_history_source ON run_history (source, id)",
            "CREATE INDEX run_history_unit ON run_history (unit, id)",
        ]),
        .statements("v2-leases-and-replicas", [
            // A lease row is never deleted (a release only ends it), so its token keeps increasing.
            """
            CREATE TABLE lease (
                name TEXT PRIMARY KEY,
                holder TEXT NOT NULL,
                token BIGINT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                taken_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE replica (
                id TEXT PRIMARY KEY,
                config_fingerprint TEXT NOT NULL,
                started_at DOUBLE PRECISION NOT NULL,
                heartbeat_at DOUBLE PRECISION NOT NULL
            )
            """,
        ]),
        .statements("v3-purged-domains", [PostgresPurgedDomains.createTable]),
        // Words are folded as SQLite's tokenizer folds them (`й` stays `й`, a Devanagari vowel sign separates
        // words): the stored words of items holding text past ASCII are folded again.
        PostgresMigration(name: "v4-words-folded-as-the-sqlite-tokenizer", apply: ItemWords.refoldStoredWords),
        PostgresMigration(name: "v5-search-vocabulary", apply: PostgresSearchTerms.createAndFill),
        .statements("v6-item-opens", [PostgresItemOpens.createTable] + PostgresItemOpens.createIndexes),
        .statements("v7-search-queries", [PostgresSearchIndex.createSearchQueryTable, "CREATE INDEX search_query_day ON search_query (day)"]),
        // Items stored before hold no author names: their words stay as they are.
        .statements("v8-authors-dates-and-related-items", [
            "ALTER TABLE item ADD COLUMN author_names TEXT NOT NULL DEFAULT '[]'",
            "ALTER TABLE item ADD COLUMN content_creation_date DOUBLE PRECISION",
            "ALTER TABLE item ADD COLUMN content_modification_date DOUBLE PRECISION",
            "ALTER TABLE item ADD COLUMN related_unique_identifier TEXT",
        ]),
        .statements("v9-sync-state", [
            "ALTER TABLE unit_state ADD COLUMN run_mode TEXT",
            "ALTER TABLE unit_state ADD COLUMN last_incremental_at DOUBLE PRECISION",
            "ALTER TABLE unit_state ADD COLUMN sync_state BYTEA",
            "ALTER TABLE unit_state ADD COLUMN sync_state_at DOUBLE PRECISION",
            "ALTER TABLE run_history ADD COLUMN mode TEXT NOT NULL DEFAULT 'full'",
        ]),
        // Rows stored before hold no digest: the first run that writes each rewrites it whole. The commit number
        // leaves the domain index, so that marking an unchanged item (a new commit number, nothing else) is an
        // update in place (HOT), touching no index; pages keep room for it.
        .statements("v10-content-digests", [
            "ALTER TABLE item ADD COLUMN content_digest BIGINT",
            "DROP INDEX item_domain",
            "CREATE INDEX item_domain ON item (domain_identifier)",
            "ALTER TABLE item SET (fillfactor = 90)",
        ]),
        .statements("v11-source-pauses", [
            "CREATE TABLE source_pause (source TEXT PRIMARY KEY, paused_at DOUBLE PRECISION NOT NULL, paused_by TEXT NOT NULL)",
        ]),
        .statements("v12-cancel-requests", ["ALTER TABLE unit_state ADD COLUMN cancel_requested_by TEXT"]),
        // Rows from before are unsettled: the first pass decides every unit, as before, and settles them.
        .statements("v13-due-index", [
            "ALTER TABLE unit_state ADD COLUMN settled_until DOUBLE PRECISION",
            "ALTER TABLE unit_state ADD COLUMN settled_under TEXT",
            "ALTER TABLE index_commit ADD COLUMN outside_changes BIGINT NOT NULL DEFAULT 0",
            """
            CREATE TABLE pass_settlement (
                id INTEGER PRIMARY KEY CHECK (id = 1), signature TEXT NOT NULL, outside_changes BIGINT NOT NULL
            )
            """,
        ]),
        // What a copy of the index on each replica follows (``PostgresSearchIndex`` as an ``IndexChangeFeed``).
        // Existing opens count as written before the first opens write: a copy made afterwards reads them all.
        // The index on `item` is built first: the counter's row, which every commit and tick reads, is altered last,
        // so it is locked only for the moment of the ALTERs.
        .statements("v14-change-feed", [
            "CREATE INDEX item_commit ON item (commit_number, id)",
            PostgresItemRemovals.createTable,
        ] + PostgresItemRemovals.createIndexes + [
            """
            CREATE TABLE open_commit (
                id INTEGER PRIMARY KEY CHECK (id = 1), last_number BIGINT NOT NULL, usage_deleted_before INTEGER NOT NULL
            )
            """,
            "INSERT INTO open_commit (id, last_number, usage_deleted_before) VALUES (1, 0, 0)",
            "ALTER TABLE item_open ADD COLUMN written_in BIGINT NOT NULL DEFAULT 0",
            "CREATE INDEX item_open_written ON item_open (written_in)",
            "ALTER TABLE index_commit ADD COLUMN identity TEXT NOT NULL DEFAULT md5(random()::text || clock_timestamp()::text)",
            "ALTER TABLE index_commit ADD COLUMN removals_forgotten_through BIGINT NOT NULL DEFAULT 0",
        ]),
        // Purges from before are not restorable: NULL.
        .statements("v15-restorable-purges", ["ALTER TABLE purged_domain ADD COLUMN restorable_until DOUBLE PRECISION"]),
        // What each key may do; never its secret (``SearchKey``). `domains` is a JSON array.
        .statements("v16-search-keys", [
            """
            CREATE TABLE search_key (
                uid TEXT PRIMARY KEY, name TEXT NOT NULL, domains TEXT NOT NULL, expires DOUBLE PRECISION, created_at DOUBLE PRECISION NOT NULL
            )
            """,
        ]),
        // The groups that may find an item, NULL for whoever may search its domain: every row before.
        .statements("v17-item-access", ["ALTER TABLE item ADD COLUMN access TEXT[]"]),
        // The documentation version an item belongs to, and whether it is the current one: every row before has none.
        .statements("v18-item-version", [
            "ALTER TABLE item ADD COLUMN version TEXT", "ALTER TABLE item ADD COLUMN is_current_version BOOLEAN NOT NULL DEFAULT true",
        ]),
        // The first rejections of a run, as JSON: NULL for runs before, and for runs that rejected nothing.
        .statements("v19-run-rejections", ["ALTER TABLE run_history ADD COLUMN rejections TEXT"]),
        // Where each replica offers its search copy to new replicas, once made: NULL for every replica before.
        .statements("v20-search-copy-offers", ["ALTER TABLE replica ADD COLUMN search_copy_url TEXT"]),
        // Ten times the default statistics of the words (10,000 most common words a column, from a sample of 300,000
        // rows): the planner's estimates of a word found nowhere or rarely, and ``WordFrequencies``, need them. Read
        // by the next `ANALYZE` (autovacuum's, or the operator's: docs/operating.md).
        .statements("v21-word-statistics", ["words_all", "words_best", "words_names"].map { "ALTER TABLE item ALTER COLUMN \($0) SET STATISTICS 1000" }),
    ]

    /// The database's clock, in seconds since 1970: lease expiry is judged by it, the one clock every replica shares.
    static let databaseNow = "extract(epoch from clock_timestamp())::float8"

    /// Applies the migrations this database lacks.
    static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.transaction(logger: logger) { connection in
            try await connection.checkedQuery("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            try await connection.checkedQuery(
                "CREATE TABLE IF NOT EXISTS scheduler_migration (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
                logger: logger
            )
            var applied = Set<String>()
            for try await name in try await connection.checkedQuery("SELECT name FROM scheduler_migration", logger: logger).decode(String.self) {
                applied.insert(name)
            }
            for migration in migrations where !applied.contains(migration.name) {
                try await migration.apply(connection, logger)
                try await connection.checkedQuery("INSERT INTO scheduler_migration (name) VALUES (\(migration.name))", logger: logger)
                logger.info("applied PostgreSQL migration \(migration.name)")
            }
        }
    }
}
