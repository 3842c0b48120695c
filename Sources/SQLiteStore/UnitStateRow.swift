import Foundation
import GRDB
import PluginAPI
import Store

/// The rows of `unit_state` and `run_history`, read into and written from the store's model.
enum UnitStateRow {
    /// The columns ``state(from:)`` reads: every one but the sync state's bytes (read apart, by the run that needs them).
    static let columns = """
        unit, source, domain, lastSuccessAt, fingerprint, itemCount, lastAttemptAt, lastResult, lastError, failures, retryAt, runner,
        forcedRun, runMode, lastIncrementalAt, syncStateAt, settledUntil, settledUnder
        """

    /// Inserts the unit's row if missing, and keeps its source and domain current.
    static func ensure(_ db: Database, _ unit: UnitState) throws {
        try db.execute(
            sql: "INSERT INTO unit_state (unit, source, domain) VALUES (?, ?, ?) ON CONFLICT(unit) DO UPDATE SET source = excluded.source, domain = excluded.domain",
            arguments: [unit.unit, unit.source, unit.domain]
        )
    }

    /// Records a success, inside the transaction of a run's final commit: a full one moves the last-indexed date and
    /// the fingerprint and replaces the state; an incremental one moves its own date and replaces the state it sent one.
    static func recordSuccess(_ db: Database, _ success: UnitSuccess) throws {
        try ensure(db, success.unit)
        let finished = success.finishedAt.timeIntervalSince1970
        let settled = "itemCount = ?, lastAttemptAt = ?, lastResult = ?, lastError = NULL, failures = 0, retryAt = NULL, runner = NULL, forcedRun = 0, runMode = NULL, settledUntil = NULL"
        let state = success.state.map { (Optional($0.json), Optional(finished)) } ?? (nil, nil)
        if success.mode == .incremental {
            try db.execute(
                sql: """
                    UPDATE unit_state SET lastIncrementalAt = ?, \(settled),
                        syncState = coalesce(?, syncState), syncStateAt = coalesce(?, syncStateAt)
                    WHERE unit = ?
                    """,
                arguments: [finished, success.itemCount, finished, UnitResult.succeeded.rawValue, state.0, state.1, success.unit.unit]
            )
        } else {
            try db.execute(
                sql: "UPDATE unit_state SET lastSuccessAt = ?, fingerprint = ?, \(settled), syncState = ?, syncStateAt = ? WHERE unit = ?",
                arguments: [finished, success.fingerprint, success.itemCount, finished, UnitResult.succeeded.rawValue, state.0, state.1, success.unit.unit]
            )
        }
    }

    /// Forgets the success of every unit whose domain lies within `domain`, inside a purge's transaction.
    static func forgetSuccesses(_ db: Database, within domain: String) throws {
        try db.execute(
            sql: """
                UPDATE unit_state SET lastSuccessAt = NULL, fingerprint = NULL, itemCount = NULL, lastResult = ?, lastError = NULL,
                    failures = 0, retryAt = NULL, runner = NULL, forcedRun = 0, runMode = NULL, lastIncrementalAt = NULL,
                    syncState = NULL, syncStateAt = NULL, settledUntil = NULL
                WHERE domain = ? OR (domain >= ? AND domain < ?)
                """,
            arguments: [UnitResult.purged.rawValue, domain, domain + ".", domain + "/"]
        )
    }

    /// Makes the pass decide the units within `domain` again, their state otherwise kept: a restorable purge, a restore.
    static func unsettle(_ db: Database, within domain: String) throws {
        try db.execute(
            sql: "UPDATE unit_state SET settledUntil = NULL WHERE domain = ? OR (domain >= ? AND domain < ?)",
            arguments: [domain, domain + ".", domain + "/"]
        )
    }

    /// The state a row of ``columns`` holds, read by position (a read by name searches the columns each time: a
    /// tick reads every unit's row).
    static func state(from row: Row) -> UnitState {
        func date(_ index: Int) -> Date? { (row[index] as Double?).map(Date.init(timeIntervalSince1970:)) }
        var state = UnitState(unit: row[0], source: row[1], domain: row[2])
        state.lastSuccessAt = date(3)
        state.fingerprint = row[4]
        state.itemCount = row[5]
        state.lastAttemptAt = date(6)
        state.lastResult = (row[7] as String?).flatMap(UnitResult.init(rawValue:))
        state.lastError = row[8]
        state.failures = row[9]
        state.retryAt = date(10)
        state.runner = row[11]
        state.forcedRun = row[12]
        state.runMode = (row[13] as String?).flatMap(SyncMode.init(rawValue:))
        state.lastIncrementalAt = date(14)
        state.syncStateAt = date(15)
        state.settledUntil = date(16)
        state.settledUnder = row[17]
        return state
    }

    static func run(from row: Row) -> RunRecord {
        var run = RunRecord(
            unit: row["unit"], source: row["source"], domain: row["domain"],
            startedAt: Date(timeIntervalSince1970: row["startedAt"]), finishedAt: Date(timeIntervalSince1970: row["finishedAt"]),
            decision: RunDecision(rawValue: row["decision"]) ?? .skipped, reason: row["reason"], indexed: row["indexed"],
            deleted: row["deleted"], rejected: row["rejected"], error: row["error"], forced: row["forced"],
            mode: (row["mode"] as String?).flatMap(SyncMode.init(rawValue:)) ?? .full
        )
        run.rejections = RunRecord.rejections(fromJSON: row["rejections"])
        return run
    }
}
