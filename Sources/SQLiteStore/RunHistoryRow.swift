import GRDB
import Store

/// The `run_history` table: one row a run, the oldest dropped past the store's history length.
enum RunHistoryRow {
    /// Inserts `run` inside the caller's transaction, and keeps the last `keep` rows.
    static func insert(_ db: Database, _ run: RunRecord, keep: Int) throws {
        try db.execute(
            sql: """
                INSERT INTO run_history (unit, source, domain, startedAt, finishedAt, decision, reason, indexed, deleted, rejected, error, forced, mode, rejections)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                run.unit, run.source, run.domain, run.startedAt.timeIntervalSince1970, run.finishedAt.timeIntervalSince1970,
                run.decision.rawValue, run.reason, run.indexed, run.deleted, run.rejected, run.error, run.forced, run.mode.rawValue, run.rejectionsJSON,
            ]
        )
        try db.execute(sql: "DELETE FROM run_history WHERE id <= (SELECT max(id) FROM run_history) - ?", arguments: [keep])
    }
}
