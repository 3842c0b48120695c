public import Foundation
import GRDB
public import HostSupport
public import Indexing
public import Logging
public import PluginAPI
public import Store

/// The embedded store: the SQLite index and the scheduler's tables in one database file, so a batch, its
/// checkpoint and a unit's success are committed in one SQLite transaction.
///
/// It owns the file: one migrator (``SQLiteSchema``) brings the index's and the scheduler's tables up to date when
/// the index opens it, and every write goes through the index's `write`, which first checks that the file is still
/// the one opened.
public final class SQLiteSchedulerStore: SchedulerStore {
    /// The index, with the SQLite-only parts (`path`, `storageSize()`, `verifyFile()`).
    public let sqliteIndex: SQLiteSearchIndex
    /// How many runs the history keeps.
    public let historyLength: Int

    public var index: any SearchIndex { sqliteIndex }
    /// None: one machine owns the file, and the pass lock beside it keeps passes apart.
    public var leases: (any LeaseStore)? { nil }
    var database: DatabasePool { sqliteIndex.database }

    /// Opens (creating if needed) the database at `path` and brings its schema up to date; `searchPostings` says which
    /// fields' words its index keeps in memory when the service keeps them, `searchRowCacheBytes` how many bytes of
    /// candidate rows its searches keep.
    public init(
        path: String, timeToLive: Duration = StoreDefaults.timeToLive, historyLength: Int = StoreDefaults.historyLength,
        clock: any WallClock = SystemWallClock(), searchPostings: SearchPostingsFields = .all,
        searchRowCacheBytes: Int = SQLiteSearchIndex.defaultRowCacheBytes, logger: Logger
    ) throws {
        sqliteIndex = try SQLiteSearchIndex(
            path: path, timeToLive: timeToLive, clock: clock, postings: searchPostings, rowCacheBytes: searchRowCacheBytes, logger: logger
        )
        self.historyLength = historyLength
    }

    public func units() async throws -> [String: UnitState] {
        try await database.read { db in
            var states: [String: UnitState] = [:]
            states.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM unit_state") ?? 0)
            let rows = try Row.fetchCursor(db, sql: "SELECT \(UnitStateRow.columns) FROM unit_state")
            while let row = try rows.next() {
                let state = UnitStateRow.state(from: row)
                states[state.unit] = state
            }
            return states
        }
    }

    public func unitsToDecide(at now: Date, settledUnder signature: String) async throws -> [String: UnitState] {
        try await database.read { db in
            var states: [String: UnitState] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(UnitStateRow.columns) FROM unit_state WHERE settledUnder IS NOT ? OR settledUntil IS NULL OR settledUntil <= ?",
                arguments: [signature, now.timeIntervalSince1970]
            )
            while let row = try rows.next() {
                let state = UnitStateRow.state(from: row)
                states[state.unit] = state
            }
            return states
        }
    }

    public func settle(_ units: [UnitSettlement], under signature: String, completing: PassSettlement?) async throws {
        try await sqliteIndex.write { db in
            // One prepared statement a unit, its dates bound exactly: a unit whose state changed since it was read stays unsettled.
            let statement = try db.cachedStatement(sql: """
                UPDATE unit_state SET settledUntil = ?, settledUnder = ? WHERE unit = ? AND lastAttemptAt IS ? AND lastResult IS ?
                """)
            for unit in units {
                try statement.execute(arguments: [
                    unit.until?.timeIntervalSince1970, signature, unit.unit, unit.lastAttemptAt?.timeIntervalSince1970, unit.lastResult?.rawValue,
                ])
            }
            if let completing {
                try db.execute(
                    sql: """
                        INSERT INTO pass_settlement (id, signature, outsideChanges) VALUES (1, ?, ?)
                        ON CONFLICT (id) DO UPDATE SET signature = excluded.signature, outsideChanges = excluded.outsideChanges
                        """,
                    arguments: [completing.signature, completing.outsideChanges]
                )
            }
        }
    }

    public func passSettlement() async throws -> PassSettlement? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT signature, outsideChanges FROM pass_settlement").map { PassSettlement(signature: $0[0], outsideChanges: $0[1]) }
        }
    }

    public func unit(_ key: String) async throws -> UnitState? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT \(UnitStateRow.columns) FROM unit_state WHERE unit = ?", arguments: [key]).map(UnitStateRow.state(from:))
        }
    }

    public func recordAttemptStart(_ unit: UnitState, at date: Date, forced: Bool, mode: SyncMode) async throws {
        try await sqliteIndex.write { db in
            try UnitStateRow.ensure(db, unit)
            try db.execute(
                sql: """
                    UPDATE unit_state SET lastAttemptAt = ?, lastResult = ?, lastError = NULL, runner = ?, forcedRun = ?, runMode = ?, cancelRequestedBy = NULL,
                        settledUntil = NULL
                    WHERE unit = ?
                    """,
                arguments: [date.timeIntervalSince1970, UnitResult.running.rawValue, RunnerIdentity.current, forced, mode.rawValue, unit.unit]
            )
        }
    }

    public func writeRunBatch(_ changes: RunChanges, domain: String, checkpoint: IndexBatch.ClientState) async throws -> RunBatchOutcome {
        // Checked and written in one transaction: no other writer can take an identifier in between.
        let batch = IndexBatch(operations: changes.operations(without: []), clientState: checkpoint, defaultExpiration: changes.defaultExpiration)
        let (outcome, taken, _) = try await sqliteIndex.commit(batch, confinedTo: domain, validated: true, alongside: { _, _ in })
        return RunBatchOutcome(upserted: outcome.upserted, unchanged: outcome.unchanged, deleted: outcome.deleted, taken: taken)
    }

    public func finishRun(_ success: UnitSuccess, deletingItemsCommittedThrough baseline: Int64?) async throws -> Int {
        let sweep = baseline.map { [IndexBatch.Operation.deleteStale(domain: success.unit.domain, committedThrough: $0)] } ?? []
        let keep = historyLength
        return try await sqliteIndex.commit(IndexBatch(operations: sweep), alongside: { db, outcome in
            try UnitStateRow.recordSuccess(db, success)
            if var history = success.history {
                history.deleted += outcome.deleted
                try RunHistoryRow.insert(db, history, keep: keep)
            }
        }).outcome.deleted
    }

    public func syncState(unit: String) async throws -> SyncState? {
        try await database.read { db in
            try (Data.fetchOne(db, sql: "SELECT syncState FROM unit_state WHERE unit = ?", arguments: [unit])).flatMap { try? SyncState(json: $0) }
        }
    }

    public func recordAttemptEnd(_ unit: UnitState, result: UnitResult, error: String, failures: Int, retryAt: Date, history: RunRecord?) async throws {
        let keep = historyLength
        try await sqliteIndex.write { db in
            if let history { try RunHistoryRow.insert(db, history, keep: keep) }
            try UnitStateRow.ensure(db, unit)
            try db.execute(
                sql: """
                    UPDATE unit_state SET lastResult = ?, lastError = ?, failures = ?, retryAt = ?, runner = NULL, forcedRun = 0, runMode = NULL,
                        cancelRequestedBy = NULL, settledUntil = NULL
                    WHERE unit = ?
                    """,
                arguments: [result.rawValue, error, failures, retryAt.timeIntervalSince1970, unit.unit]
            )
        }
    }

    public func requestCancel(source: String, by: String) async throws -> [String] {
        try await sqliteIndex.write { db in
            try String.fetchAll(
                db, sql: "UPDATE unit_state SET cancelRequestedBy = ? WHERE source = ? AND lastResult = ? RETURNING unit",
                arguments: [by, source, UnitResult.running.rawValue]
            ).sorted()
        }
    }

    public func cancelRequest(unit: String) async throws -> String? {
        try await database.read { db in
            try String.fetchOne(db, sql: "SELECT cancelRequestedBy FROM unit_state WHERE unit = ? AND lastResult = ?", arguments: [unit, UnitResult.running.rawValue])
        }
    }

    public func purge(domain: String, restorableUntil until: Date?) async throws -> PurgeOutcome {
        let now = sqliteIndex.clock.now()
        return try await sqliteIndex.commit(IndexBatch(), alongside: { db, outcome in
            let (removed, restorable) = try PurgedDomains.purge(
                db, domain: domain, commitNumber: outcome.commitNumber, deletingThisCommitsRows: false, now: now, restorableUntil: until
            )
            // Counted: the purged domain may lie under a unit's, which holds fewer items, or none, while its state stands.
            try SQLiteSearchIndex.countOutsideChange(db)
            if restorable { try UnitStateRow.unsettle(db, within: domain) } else { try UnitStateRow.forgetSuccesses(db, within: domain) }
            return PurgeOutcome(deleted: removed, restorableUntil: restorable ? until : nil)
        }).result
    }

    public func restorePurge(domain: String, endingCheckpoints batchNames: [String]) async throws -> Int? {
        let now = sqliteIndex.clock.now()
        return try await sqliteIndex.commit(IndexBatch(), alongside: { db, _ in
            guard let restored = try PurgedDomains.restore(db, domain: domain, now: now) else { return nil }
            for name in batchNames { try db.execute(sql: "DELETE FROM batch_client_state WHERE batchName = ?", arguments: [name]) }
            try SQLiteSearchIndex.countOutsideChange(db)
            try UnitStateRow.unsettle(db, within: domain)
            return restored
        }).result
    }

    public func markInterrupted() async throws -> [UnitState] {
        try await sqliteIndex.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT \(UnitStateRow.columns) FROM unit_state WHERE lastResult = ?", arguments: [UnitResult.running.rawValue])
            try db.execute(
                sql: "UPDATE unit_state SET lastResult = ?, lastError = ?, runner = NULL, settledUntil = NULL WHERE lastResult = ?",
                arguments: [UnitResult.interrupted.rawValue, UnitState.interruptedError, UnitResult.running.rawValue]
            )
            return rows.map(UnitStateRow.state(from:))
        }
    }

    public func append(_ run: RunRecord) async throws {
        let keep = historyLength
        try await sqliteIndex.write { db in try RunHistoryRow.insert(db, run, keep: keep) }
    }

    public func peakItemCount(unit: String, since: Date) async throws -> Int? {
        try await database.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT max(indexed) FROM run_history
                    WHERE unit = ? AND decision = 'reindexed' AND mode <> 'incremental' AND finishedAt >= ?
                        AND id >= (SELECT coalesce(max(id), 0) FROM run_history
                                  WHERE unit = ? AND (decision = 'purged' OR (decision = 'reindexed' AND forced = 1 AND mode <> 'incremental')))
                    """,
                arguments: [unit, since.timeIntervalSince1970, unit]
            )
        }
    }

    public func history(source: String?, unit: String?, limit: Int) async throws -> [RunRecord] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT * FROM run_history WHERE (? IS NULL OR source = ?) AND (? IS NULL OR unit = ?) ORDER BY id DESC LIMIT ?",
                arguments: [source, source, unit, unit, limit]
            ).map(UnitStateRow.run(from:))
        }
    }

    public func pausedSources() async throws -> [String: SourcePause] {
        try await database.read { db in
            var pauses: [String: SourcePause] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT source, pausedAt, pausedBy FROM source_pause") {
                let pause = SourcePause(source: row[0], pausedAt: Date(timeIntervalSince1970: row[1]), pausedBy: row[2])
                pauses[pause.source] = pause
            }
            return pauses
        }
    }

    public func pause(_ pause: SourcePause) async throws -> Bool {
        try await sqliteIndex.write { db in
            try db.execute(
                sql: "INSERT INTO source_pause (source, pausedAt, pausedBy) VALUES (?, ?, ?) ON CONFLICT (source) DO NOTHING",
                arguments: [pause.source, pause.pausedAt.timeIntervalSince1970, pause.pausedBy]
            )
            return db.changesCount > 0
        }
    }

    public func resume(source: String) async throws -> Bool {
        try await sqliteIndex.write { db in
            try db.execute(sql: "DELETE FROM source_pause WHERE source = ?", arguments: [source])
            return db.changesCount > 0
        }
    }

    public func searchKeys() async throws -> [SearchKey] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT uid, name, domains, expires, createdAt FROM search_key ORDER BY createdAt, uid").map { row in
                SearchKey(
                    uid: row[0], name: row[1], domains: SearchKeyDomains.decode(row[2]), expires: (row[3] as Double?).map(Date.init(timeIntervalSince1970:)),
                    createdAt: Date(timeIntervalSince1970: row[4])
                )
            }
        }
    }

    public func addSearchKey(_ key: SearchKey) async throws {
        try await sqliteIndex.write { db in
            try db.execute(
                sql: "INSERT INTO search_key (uid, name, domains, expires, createdAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [key.uid, key.name, SearchKeyDomains.encode(key.domains), key.expires?.timeIntervalSince1970, key.createdAt.timeIntervalSince1970]
            )
        }
    }

    public func revokeSearchKey(uid: String) async throws -> Bool {
        try await sqliteIndex.write { db in
            try db.execute(sql: "DELETE FROM search_key WHERE uid = ?", arguments: [uid])
            return db.changesCount > 0
        }
    }

    public var location: String { sqliteIndex.path }

    public func storageBytes() async throws -> Int { sqliteIndex.storageSize() }

    public func savedSearchStructureBytes() async throws -> Int? { sqliteIndex.savedPostingsSize() }

    public func checkHealth() async throws {
        try sqliteIndex.verifyFile()
        _ = try await sqliteIndex.lastCommitNumber()
    }
}
