import GRDB

/// The scheduler's tables, beside the index's in the same file: `unit_state` holds one row per unit,
/// `run_history` the last runs.
enum SchedulerStateSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
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
        return migrator
    }
}
