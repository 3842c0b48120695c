import Foundation
import GRDB
public import Indexing

/// The scheduler's memory, in tables of the index's own database file, so the index and what the scheduler
/// believes about it are committed together and cannot disagree.
///
/// `unit_state` holds one row per unit; `run_history` the last ``historyLength`` runs.
public struct SchedulerState: Sendable {
    let index: SQLiteSearchIndex
    public let historyLength: Int

    public init(index: SQLiteSearchIndex, historyLength: Int = 1000) throws {
        self.index = index
        self.historyLength = historyLength
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
        try SharedDatabaseFile.migrate(index.database, with: migrator)
    }

    /// Every unit the scheduler remembers, by unit key.
    public func units() async throws -> [String: UnitState] {
        try await index.database.read { db in
            var states: [String: UnitState] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM unit_state") {
                let state = Self.state(from: row)
                states[state.unit] = state
            }
            return states
        }
    }

    /// Notes that an attempt started, before any item is written: which process runs it, and whether it is
    /// forced (an interrupted forced run is redone forced).
    func recordAttemptStart(_ unit: UnitState, at date: Date, forced: Bool) async throws {
        try await index.write { db in
            try Self.ensureRow(db, unit)
            try db.execute(
                sql: "UPDATE unit_state SET lastAttemptAt = ?, lastResult = 'running', lastError = NULL, runner = ?, forcedRun = ? WHERE unit = ?",
                arguments: [date.timeIntervalSince1970, RunnerIdentity.current, forced, unit.unit]
            )
        }
    }

    /// Records a success inside the transaction of the final batch (see `SQLiteSearchIndex.commit(_:alongside:)`).
    static func recordSuccess(_ db: Database, unit: UnitState, at date: Date, fingerprint: String, itemCount: Int) throws {
        try ensureRow(db, unit)
        try db.execute(
            sql: """
                UPDATE unit_state SET lastSuccessAt = ?, fingerprint = ?, itemCount = ?, lastAttemptAt = ?,
                    lastResult = 'succeeded', lastError = NULL, failures = 0, retryAt = NULL, runner = NULL, forcedRun = 0
                WHERE unit = ?
                """,
            arguments: [date.timeIntervalSince1970, fingerprint, itemCount, date.timeIntervalSince1970, unit.unit]
        )
    }

    /// Records a failed attempt and when the next may start.
    func recordFailure(_ unit: UnitState, error: String, failures: Int, retryAt: Date) async throws {
        try await index.write { db in
            try Self.ensureRow(db, unit)
            try db.execute(
                sql: """
                    UPDATE unit_state SET lastResult = 'failed', lastError = ?, failures = ?, retryAt = ?, runner = NULL, forcedRun = 0
                    WHERE unit = ?
                    """,
                arguments: [error, failures, retryAt.timeIntervalSince1970, unit.unit]
            )
        }
    }

    /// Forgets the success of every unit whose domain lies within `domain`, inside a purge's transaction,
    /// so that the units reindex at once when they run again.
    static func forgetSuccesses(_ db: Database, within domain: String) throws {
        try db.execute(
            sql: """
                UPDATE unit_state SET lastSuccessAt = NULL, fingerprint = NULL, itemCount = NULL, lastResult = 'purged', lastError = NULL,
                    failures = 0, retryAt = NULL, runner = NULL, forcedRun = 0
                WHERE domain = ? OR (domain >= ? AND domain < ?)
                """,
            arguments: [domain, domain + ".", domain + "/"]
        )
    }

    /// Deletes `domain` and everything under it from the index, and forgets the successes of the units there,
    /// in one commit; returns how many items were deleted.
    public func purge(domain: String) async throws -> Int {
        try await index.commit(IndexBatch(operations: [.deleteDomains([domain])]), alongside: { db, _ in
            try Self.forgetSuccesses(db, within: domain)
        }).deleted
    }

    /// Marks the attempts still `running` as `interrupted`: called by a pass holding the lock, so no process
    /// is running them; the process that was died or was stopped before its final commit.
    func markInterrupted() async throws -> [UnitState] {
        try await index.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM unit_state WHERE lastResult = 'running'")
            try db.execute(
                sql: "UPDATE unit_state SET lastResult = 'interrupted', lastError = ?, runner = NULL WHERE lastResult = 'running'",
                arguments: [UnitState.interruptedError]
            )
            return rows.map(Self.state(from:))
        }
    }

    /// Appends a run to the history, keeping the last ``historyLength``.
    func append(_ run: RunRecord) async throws {
        let keep = historyLength
        try await index.write { db in
            try db.execute(
                sql: """
                    INSERT INTO run_history (unit, source, domain, startedAt, finishedAt, decision, reason, indexed, deleted, rejected, error, forced)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    run.unit, run.source, run.domain, run.startedAt.timeIntervalSince1970, run.finishedAt.timeIntervalSince1970,
                    run.decision, run.reason, run.indexed, run.deleted, run.rejected, run.error, run.forced,
                ]
            )
            try db.execute(sql: "DELETE FROM run_history WHERE id <= (SELECT max(id) FROM run_history) - ?", arguments: [keep])
        }
    }

    /// The most items a successful run of `unit` produced since `since`, counting only its last purge or forced
    /// success and the runs after it (a forced run sets a new size); `nil` when there is none in the history kept.
    func peakItemCount(unit: String, since: Date) async throws -> Int? {
        try await index.database.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT max(indexed) FROM run_history
                    WHERE unit = ? AND decision = 'reindexed' AND finishedAt >= ?
                        AND id >= (SELECT coalesce(max(id), 0) FROM run_history
                                  WHERE unit = ? AND (decision = 'purged' OR (decision = 'reindexed' AND forced = 1)))
                    """,
                arguments: [unit, since.timeIntervalSince1970, unit]
            )
        }
    }

    /// The most recent runs first, of one source or all.
    public func history(source: String? = nil, limit: Int) async throws -> [RunRecord] {
        try await index.database.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT * FROM run_history WHERE ? IS NULL OR source = ? ORDER BY id DESC LIMIT ?",
                arguments: [source, source, limit]
            )
            return rows.map { row in
                RunRecord(
                    unit: row["unit"], source: row["source"], domain: row["domain"],
                    startedAt: Date(timeIntervalSince1970: row["startedAt"]), finishedAt: Date(timeIntervalSince1970: row["finishedAt"]),
                    decision: row["decision"], reason: row["reason"], indexed: row["indexed"], deleted: row["deleted"],
                    rejected: row["rejected"], error: row["error"], forced: row["forced"]
                )
            }
        }
    }

    private static func ensureRow(_ db: Database, _ unit: UnitState) throws {
        try db.execute(
            sql: "INSERT INTO unit_state (unit, source, domain) VALUES (?, ?, ?) ON CONFLICT(unit) DO UPDATE SET source = excluded.source, domain = excluded.domain",
            arguments: [unit.unit, unit.source, unit.domain]
        )
    }

    private static func state(from row: Row) -> UnitState {
        var state = UnitState(unit: row["unit"], source: row["source"], domain: row["domain"])
        state.lastSuccessAt = (row["lastSuccessAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        state.fingerprint = row["fingerprint"]
        state.itemCount = row["itemCount"]
        state.lastAttemptAt = (row["lastAttemptAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        state.lastResult = row["lastResult"]
        state.lastError = row["lastError"]
        state.failures = row["failures"]
        state.retryAt = (row["retryAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        state.runner = row["runner"]
        state.forcedRun = row["forcedRun"]
        return state
    }
}
