import Foundation
import GRDB
import Store

/// The rows of `unit_state` and `run_history`, read into and written from the store's model.
enum UnitStateRow {
    /// Inserts the unit's row if missing, and keeps its source and domain current.
    static func ensure(_ db: Database, _ unit: UnitState) throws {
        try db.execute(
            sql: "INSERT INTO unit_state (unit, source, domain) VALUES (?, ?, ?) ON CONFLICT(unit) DO UPDATE SET source = excluded.source, domain = excluded.domain",
            arguments: [unit.unit, unit.source, unit.domain]
        )
    }

    /// Records a success, inside the transaction of a run's final commit.
    static func recordSuccess(_ db: Database, _ success: UnitSuccess) throws {
        try ensure(db, success.unit)
        let finished = success.finishedAt.timeIntervalSince1970
        try db.execute(
            sql: """
                UPDATE unit_state SET lastSuccessAt = ?, fingerprint = ?, itemCount = ?, lastAttemptAt = ?,
                    lastResult = ?, lastError = NULL, failures = 0, retryAt = NULL, runner = NULL, forcedRun = 0
                WHERE unit = ?
                """,
            arguments: [finished, success.fingerprint, success.itemCount, finished, UnitResult.succeeded.rawValue, success.unit.unit]
        )
    }

    /// Forgets the success of every unit whose domain lies within `domain`, inside a purge's transaction.
    static func forgetSuccesses(_ db: Database, within domain: String) throws {
        try db.execute(
            sql: """
                UPDATE unit_state SET lastSuccessAt = NULL, fingerprint = NULL, itemCount = NULL, lastResult = ?, lastError = NULL,
                    failures = 0, retryAt = NULL, runner = NULL, forcedRun = 0
                WHERE domain = ? OR (domain >= ? AND domain < ?)
                """,
            arguments: [UnitResult.purged.rawValue, domain, domain + ".", domain + "/"]
        )
    }

    static func state(from row: Row) -> UnitState {
        var state = UnitState(unit: row["unit"], source: row["source"], domain: row["domain"])
        state.lastSuccessAt = (row["lastSuccessAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        state.fingerprint = row["fingerprint"]
        state.itemCount = row["itemCount"]
        state.lastAttemptAt = (row["lastAttemptAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        state.lastResult = (row["lastResult"] as String?).flatMap(UnitResult.init(rawValue:))
        state.lastError = row["lastError"]
        state.failures = row["failures"]
        state.retryAt = (row["retryAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        state.runner = row["runner"]
        state.forcedRun = row["forcedRun"]
        return state
    }

    static func run(from row: Row) -> RunRecord {
        RunRecord(
            unit: row["unit"], source: row["source"], domain: row["domain"],
            startedAt: Date(timeIntervalSince1970: row["startedAt"]), finishedAt: Date(timeIntervalSince1970: row["finishedAt"]),
            decision: RunDecision(rawValue: row["decision"]) ?? .skipped, reason: row["reason"], indexed: row["indexed"],
            deleted: row["deleted"], rejected: row["rejected"], error: row["error"], forced: row["forced"]
        )
    }
}
