public import Foundation
public import HostSupport
public import Indexing
public import Logging
public import PluginAPI
import PostgresNIO
public import ServiceLifecycle
public import Store

/// The store for several replicas: the index and the scheduler's tables in one PostgreSQL database, each
/// operation of the pass one transaction.
///
/// Making one connects nothing. Run its ``connectionPool`` as a service of the `ServiceGroup` that uses the store,
/// listed ahead of the services using it (a graceful shutdown stops them first, so their last writes, such as a
/// lease's release, still reach the database), then call ``prepare()`` before anything else.
public final class PostgresSchedulerStore: SchedulerStore {
    let client: PostgresClient
    let postgresIndex: PostgresSearchIndex
    /// How many runs the history keeps.
    public let historyLength: Int
    public let location: String
    /// Where the database is, to explain a failure.
    let postgresLocation: PostgresLocation
    /// The configuration of the one connection ``prepare()`` tries before the pool's first.
    let probeConfiguration: PostgresConnection.Configuration
    /// The lease every write of this view checks first (see ``fenced(by:)``); `nil` for the unfenced store.
    let fence: Lease?
    let logger: Logger

    public var index: any SearchIndex { postgresIndex }
    public var leases: (any LeaseStore)? { self }
    /// The connection pool, a service that runs as long as the store is used.
    public var connectionPool: any Service { client }

    /// The store at `location`, the password read from `environment` when the location names a variable; throws
    /// ``PostgresLocation/MissingPassword`` when that variable is not set. Searches go to `searchCopy` while it can
    /// answer them (see ``PostgresSearchIndex/search(_:)``).
    public init(
        location: PostgresLocation, environment: [String: String] = ProcessInfo.processInfo.environment,
        timeToLive: Duration = StoreDefaults.timeToLive, historyLength: Int = StoreDefaults.historyLength,
        clock: any WallClock = SystemWallClock(), searchCopy: (any SearchCopy)? = nil, logger: Logger
    ) throws {
        client = PostgresClient(configuration: try location.clientConfiguration(environment: environment), backgroundLogger: logger)
        probeConfiguration = try location.connectionConfiguration(environment: environment)
        self.location = location.description
        postgresLocation = location
        postgresIndex = PostgresSearchIndex(client: client, timeToLive: timeToLive, clock: clock, searchCopy: searchCopy, logger: logger)
        self.historyLength = historyLength
        fence = nil
        self.logger = logger
    }

    /// A view of `store` whose writes are fenced by `fence`.
    init(sharing store: PostgresSchedulerStore, fence: Lease) {
        client = store.client
        postgresIndex = store.postgresIndex
        historyLength = store.historyLength
        location = store.location
        postgresLocation = store.postgresLocation
        probeConfiguration = store.probeConfiguration
        self.fence = fence
        logger = store.logger
    }

    /// Makes the store ready once its pool runs: tries one connection of its own first, so a wrong password or a
    /// missing database stops the command at once with the remedy (``PostgresUnavailable``) instead of a pool
    /// retrying in the background, then brings the schema up to date; warns when its sessions do not run with the
    /// settings they start with (``PostgresLocation/sessionSettings``: a pooler dropped them).
    public func prepare() async throws {
        try await PostgresUnavailable.probe(postgresLocation, configuration: probeConfiguration, logger: logger)
        try await PostgresSchema.migrate(client, logger: logger)
        let notApplied = try await PostgresLocation.sessionSettingsNotApplied(on: client, logger: logger)
        if !notApplied.isEmpty {
            let wanted = PostgresLocation.requiredSessionSettings.map { "\($0.0) = \($0.1)" }
            logger.warning("""
                the store's PostgreSQL sessions run with \(notApplied.joined(separator: ", ")) instead of \(wanted.joined(separator: ", ")): \
                a connection pooler ignores them (PgBouncer's ignore_startup_parameters); set them on the server for the role it logs \
                in as (docs/operating.md, "Through PgBouncer")
                """)
        }
    }

    public func units() async throws -> [String: UnitState] {
        var states: [String: UnitState] = [:]
        for try await row in try await client.checkedQuery("SELECT \(unescaped: UnitStateColumns.list) FROM unit_state", logger: logger) {
            let state = try UnitStateColumns.state(from: row)
            states[state.unit] = state
        }
        return states
    }

    public func unitsToDecide(at now: Date, settledUnder signature: String) async throws -> [String: UnitState] {
        var states: [String: UnitState] = [:]
        let rows = try await client.checkedQuery(
            """
            SELECT \(unescaped: UnitStateColumns.list) FROM unit_state
            WHERE settled_under IS DISTINCT FROM \(signature) OR settled_until IS NULL OR settled_until <= \(now.timeIntervalSince1970)
            """,
            logger: logger
        )
        for try await row in rows {
            let state = try UnitStateColumns.state(from: row)
            states[state.unit] = state
        }
        return states
    }

    public func settle(_ units: [UnitSettlement], under signature: String, completing: PassSettlement?) async throws {
        // One statement for every unit, its values in arrays (a missing date as NaN, a missing result as ''); a unit
        // whose state changed since it was read stays unsettled.
        let names = units.map(\.unit), until = units.map { $0.until?.timeIntervalSince1970 ?? .nan }
        let attempts = units.map { $0.lastAttemptAt?.timeIntervalSince1970 ?? .nan }, results = units.map { $0.lastResult?.rawValue ?? "" }
        try await client.transaction(logger: logger) { connection in
            if !units.isEmpty {
                try await connection.checkedQuery(
                    """
                    UPDATE unit_state SET settled_until = nullif(s.until, 'NaN'), settled_under = \(signature)
                    FROM unnest(\(names)::text[], \(until)::float8[], \(attempts)::float8[], \(results)::text[]) AS s(unit, until, attempt, result)
                    WHERE unit_state.unit = s.unit AND unit_state.last_attempt_at IS NOT DISTINCT FROM nullif(s.attempt, 'NaN')
                        AND unit_state.last_result IS NOT DISTINCT FROM nullif(s.result, '')
                    """,
                    logger: logger
                )
            }
            if let completing {
                try await connection.checkedQuery(
                    """
                    INSERT INTO pass_settlement (id, signature, outside_changes) VALUES (1, \(completing.signature), \(completing.outsideChanges))
                    ON CONFLICT (id) DO UPDATE SET signature = EXCLUDED.signature, outside_changes = EXCLUDED.outside_changes
                    """,
                    logger: logger
                )
            }
        }
    }

    public func passSettlement() async throws -> PassSettlement? {
        for try await (signature, changes) in try await client.checkedQuery("SELECT signature, outside_changes FROM pass_settlement", logger: logger)
            .decode((String, Int64).self)
        {
            return PassSettlement(signature: signature, outsideChanges: changes)
        }
        return nil
    }

    public func unit(_ key: String) async throws -> UnitState? {
        for try await row in try await client.checkedQuery("SELECT \(unescaped: UnitStateColumns.list) FROM unit_state WHERE unit = \(key)", logger: logger) {
            return try UnitStateColumns.state(from: row)
        }
        return nil
    }

    public func recordAttemptStart(_ unit: UnitState, at date: Date, forced: Bool, mode: SyncMode) async throws {
        try await client.transaction(logger: logger) { connection in
            try await Self.check(fence, connection, logger: logger)
            try await Self.ensureRow(connection, unit, logger: logger)
            try await connection.checkedQuery(
                """
                UPDATE unit_state SET last_attempt_at = \(date.timeIntervalSince1970), last_result = \(UnitResult.running.rawValue),
                    last_error = NULL, runner = \(RunnerIdentity.current), forced_run = \(forced), run_mode = \(mode.rawValue),
                    cancel_requested_by = NULL, settled_until = NULL
                WHERE unit = \(unit.unit)
                """,
                logger: logger
            )
        }
    }

    public func writeRunBatch(_ changes: RunChanges, domain: String, checkpoint: IndexBatch.ClientState) async throws -> RunBatchOutcome {
        var taken: [HeldIdentifier] = []
        var upserted = 0, unchanged = 0, deleted = 0
        let logger = logger
        // The commit number's row lock is taken first: no other commit can take an identifier between the check and the write.
        let fence = fence
        _ = try await postgresIndex.commit(IndexBatch(clientState: checkpoint)) { connection, commit in
            let number = commit.commitNumber
            try await Self.check(fence, connection, logger: logger)
            var sql = SQLBuilder("SELECT unique_identifier, domain_identifier FROM item WHERE unique_identifier = ANY(")
            sql.append("\(sql.bind(changes.items.map(\.uniqueIdentifier) + changes.deletions))) AND \(PostgresPurgedDomains.liveCondition) AND NOT ")
            sql.appendDomainRange(domain)
            for try await (identifier, holder) in try await connection.checkedQuery(sql.query, logger: logger).decode((String, String).self) {
                taken.append(HeldIdentifier(identifier: identifier, domain: holder))
            }
            for operation in changes.operations(without: taken) {
                switch operation {
                case .upsert(let items):
                    let written = try await self.postgresIndex.upsert(items, expiration: changes.defaultExpiration, commitNumber: number, connection: connection)
                    upserted += written.upserted
                    unchanged += written.unchanged
                case .deleteIdentifiers(let identifiers): deleted += try await self.postgresIndex.delete(identifiers: identifiers, commitNumber: number, connection: connection)
                default: break
                }
            }
        }
        return RunBatchOutcome(upserted: upserted, unchanged: unchanged, deleted: deleted, taken: taken)
    }

    public func finishRun(_ success: UnitSuccess, deletingItemsCommittedThrough baseline: Int64?) async throws -> Int {
        let logger = logger, fence = fence
        let sweep = baseline.map { [IndexBatch.Operation.deleteStale(domain: success.unit.domain, committedThrough: $0)] } ?? []
        let historyLength = historyLength
        return try await postgresIndex.commit(IndexBatch(operations: sweep)) { connection, outcome in
            try await Self.check(fence, connection, logger: logger)
            try await Self.ensureRow(connection, success.unit, logger: logger)
            if var history = success.history {
                history.deleted += outcome.deleted
                try await Self.insertHistory(history, keep: historyLength, connection, logger: logger)
            }
            let finished = success.finishedAt.timeIntervalSince1970
            let (state, stateAt) = success.state.map { (Optional($0.json), Optional(finished)) } ?? (nil, nil)
            let settled: PostgresQuery = try success.mode == .incremental
                ? """
                    UPDATE unit_state SET last_incremental_at = \(finished), sync_state = coalesce(\(state)::bytea, sync_state),
                        sync_state_at = coalesce(\(stateAt)::float8, sync_state_at), item_count = \(success.itemCount), last_attempt_at = \(finished),
                        last_result = \(UnitResult.succeeded.rawValue), last_error = NULL, failures = 0, retry_at = NULL, runner = NULL,
                        forced_run = FALSE, run_mode = NULL, settled_until = NULL
                    WHERE unit = \(success.unit.unit)
                    """
                : """
                    UPDATE unit_state SET last_success_at = \(finished), fingerprint = \(success.fingerprint), sync_state = \(state),
                        sync_state_at = \(stateAt), item_count = \(success.itemCount), last_attempt_at = \(finished),
                        last_result = \(UnitResult.succeeded.rawValue), last_error = NULL, failures = 0, retry_at = NULL, runner = NULL,
                        forced_run = FALSE, run_mode = NULL, settled_until = NULL
                    WHERE unit = \(success.unit.unit)
                    """
            try await connection.checkedQuery(settled, logger: logger)
        }.deleted
    }

    public func syncState(unit: String) async throws -> SyncState? {
        for try await json in try await client.checkedQuery("SELECT sync_state FROM unit_state WHERE unit = \(unit)", logger: logger).decode(Data?.self) {
            return json.flatMap { try? SyncState(json: $0) }
        }
        return nil
    }

    public func recordAttemptEnd(_ unit: UnitState, result: UnitResult, error: String, failures: Int, retryAt: Date, history: RunRecord?) async throws {
        let historyLength = historyLength
        try await client.transaction(logger: logger) { connection in
            try await Self.check(fence, connection, logger: logger)
            try await Self.ensureRow(connection, unit, logger: logger)
            if let history { try await Self.insertHistory(history, keep: historyLength, connection, logger: logger) }
            try await connection.checkedQuery(
                """
                UPDATE unit_state SET last_result = \(result.rawValue), last_error = \(error), failures = \(failures),
                    retry_at = \(retryAt.timeIntervalSince1970), runner = NULL, forced_run = FALSE, run_mode = NULL, cancel_requested_by = NULL,
                    settled_until = NULL
                WHERE unit = \(unit.unit)
                """,
                logger: logger
            )
        }
    }

    public func requestCancel(source: String, by: String) async throws -> [String] {
        var units: [String] = []
        let rows = try await client.checkedQuery(
            """
            UPDATE unit_state SET cancel_requested_by = \(by) WHERE source = \(source) AND last_result = \(UnitResult.running.rawValue)
            RETURNING unit
            """,
            logger: logger
        )
        for try await unit in rows.decode(String.self) { units.append(unit) }
        return units.sorted()
    }

    public func cancelRequest(unit: String) async throws -> String? {
        let rows = try await client.checkedQuery(
            "SELECT cancel_requested_by FROM unit_state WHERE unit = \(unit) AND last_result = \(UnitResult.running.rawValue)", logger: logger
        )
        for try await by in rows.decode(String?.self) { return by }
        return nil
    }

    public func purge(domain: String, restorableUntil until: Date?) async throws -> PurgeOutcome {
        let logger = logger, fence = fence, now = postgresIndex.clock.now()
        var result = PurgeOutcome(deleted: 0, restorableUntil: nil)
        _ = try await postgresIndex.commit(IndexBatch()) { connection, outcome in
            try await Self.check(fence, connection, logger: logger)
            let (removed, restorable) = try await PostgresPurgedDomains.purge(
                connection, domain: domain, commitNumber: outcome.commitNumber, now: now, restorableUntil: until, logger: logger
            )
            // Counted: the purged domain may lie under a unit's, which holds fewer items, or none, while its state stands.
            try await Self.countOutsideChange(connection, logger: logger)
            if restorable {
                try await Self.unsettle(within: domain, connection, logger: logger)
            } else {
                var sql = SQLBuilder("UPDATE unit_state SET last_success_at = NULL, fingerprint = NULL, item_count = NULL, last_result = ")
                sql.append("\(sql.bind(UnitResult.purged.rawValue)), last_error = NULL, failures = 0, retry_at = NULL, runner = NULL, forced_run = FALSE, ")
                sql.append("run_mode = NULL, last_incremental_at = NULL, sync_state = NULL, sync_state_at = NULL, settled_until = NULL WHERE ")
                sql.appendDomainRange(domain, column: "domain")
                try await connection.checkedQuery(sql.query, logger: logger)
            }
            result = PurgeOutcome(deleted: removed, restorableUntil: restorable ? until : nil)
        }
        return result
    }

    public func restorePurge(domain: String, endingCheckpoints batchNames: [String]) async throws -> Int? {
        let logger = logger, fence = fence, now = postgresIndex.clock.now()
        var restored: Int?
        _ = try await postgresIndex.commit(IndexBatch()) { connection, outcome in
            try await Self.check(fence, connection, logger: logger)
            restored = try await PostgresPurgedDomains.restore(connection, domain: domain, commitNumber: outcome.commitNumber, now: now, logger: logger)
            guard restored != nil else { return }
            try await connection.checkedQuery("DELETE FROM batch_client_state WHERE batch_name = ANY(\(batchNames)::text[])", logger: logger)
            try await Self.countOutsideChange(connection, logger: logger)
            try await Self.unsettle(within: domain, connection, logger: logger)
        }
        return restored
    }

    private static func countOutsideChange(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.checkedQuery("UPDATE index_commit SET outside_changes = outside_changes + 1", logger: logger)
    }

    /// Makes the pass decide the units within `domain` again, their state otherwise kept.
    private static func unsettle(within domain: String, _ connection: PostgresConnection, logger: Logger) async throws {
        var sql = SQLBuilder("UPDATE unit_state SET settled_until = NULL WHERE ")
        sql.appendDomainRange(domain, column: "domain")
        try await connection.checkedQuery(sql.query, logger: logger)
    }

    public func markInterrupted() async throws -> [UnitState] {
        try await client.transaction(logger: logger) { connection in
            var interrupted: [UnitState] = []
            let rows = try await connection.checkedQuery(
                """
                UPDATE unit_state SET last_result = \(UnitResult.interrupted.rawValue), last_error = \(UnitState.interruptedError), runner = NULL,
                    settled_until = NULL
                WHERE last_result = \(UnitResult.running.rawValue) AND NOT EXISTS (
                    SELECT 1 FROM lease WHERE lease.name = 'unit/' || unit_state.unit AND lease.expires_at > \(unescaped: PostgresSchema.databaseNow))
                RETURNING \(unescaped: UnitStateColumns.list)
                """,
                logger: logger
            )
            for try await row in rows {
                var state = try UnitStateColumns.state(from: row)
                state.lastResult = .running
                interrupted.append(state)
            }
            return interrupted
        }
    }

    public func append(_ run: RunRecord) async throws {
        let historyLength = historyLength
        try await client.transaction(logger: logger) { connection in
            try await Self.check(fence, connection, logger: logger)
            try await Self.insertHistory(run, keep: historyLength, connection, logger: logger)
        }
    }

    /// Inserts `run` into the history inside the caller's transaction, and keeps the last `keep` rows.
    static func insertHistory(_ run: RunRecord, keep: Int, _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.checkedQuery(
            """
            INSERT INTO run_history (unit, source, domain, started_at, finished_at, decision, reason, indexed, deleted, rejected, error, forced, mode, rejections)
            VALUES (\(run.unit), \(run.source), \(run.domain), \(run.startedAt.timeIntervalSince1970), \(run.finishedAt.timeIntervalSince1970),
                \(run.decision.rawValue), \(run.reason), \(run.indexed), \(run.deleted), \(run.rejected), \(run.error), \(run.forced), \(run.mode.rawValue),
                \(run.rejectionsJSON))
            """,
            logger: logger
        )
        try await connection.checkedQuery("DELETE FROM run_history WHERE id <= (SELECT max(id) FROM run_history) - \(keep)", logger: logger)
    }

    public func peakItemCount(unit: String, since: Date) async throws -> Int? {
        let rows = try await client.checkedQuery(
            """
            SELECT max(indexed) FROM run_history
            WHERE unit = \(unit) AND decision = 'reindexed' AND mode <> 'incremental' AND finished_at >= \(since.timeIntervalSince1970)
                AND id >= (SELECT coalesce(max(id), 0) FROM run_history
                          WHERE unit = \(unit) AND (decision = 'purged' OR (decision = 'reindexed' AND forced AND mode <> 'incremental')))
            """,
            logger: logger
        )
        for try await peak in rows.decode(Int?.self) { return peak }
        return nil
    }

    public func history(source: String?, unit: String?, limit: Int) async throws -> [RunRecord] {
        let rows = try await client.checkedQuery(
            """
            SELECT unit, source, domain, started_at, finished_at, decision, reason, indexed, deleted, rejected, error, forced, mode, rejections
            FROM run_history WHERE (\(source)::text IS NULL OR source = \(source)) AND (\(unit)::text IS NULL OR unit = \(unit))
            ORDER BY id DESC LIMIT \(limit)
            """,
            logger: logger
        )
        var runs: [RunRecord] = []
        for try await (unit, source, domain, started, finished, decision, reason, indexed, deleted, rejected, error, forced, mode, rejections) in rows.decode(
            (String, String, String, Double, Double, String, String, Int, Int, Int, String?, Bool, String, String?).self
        ) {
            var run = RunRecord(
                unit: unit, source: source, domain: domain, startedAt: Date(timeIntervalSince1970: started),
                finishedAt: Date(timeIntervalSince1970: finished), decision: RunDecision(rawValue: decision) ?? .skipped, reason: reason,
                indexed: indexed, deleted: deleted, rejected: rejected, error: error, forced: forced, mode: SyncMode(rawValue: mode) ?? .full
            )
            run.rejections = RunRecord.rejections(fromJSON: rejections)
            runs.append(run)
        }
        return runs
    }

    public func pausedSources() async throws -> [String: SourcePause] {
        var pauses: [String: SourcePause] = [:]
        let rows = try await client.checkedQuery("SELECT source, paused_at, paused_by FROM source_pause", logger: logger)
        for try await (source, pausedAt, pausedBy) in rows.decode((String, Double, String).self) {
            pauses[source] = SourcePause(source: source, pausedAt: Date(timeIntervalSince1970: pausedAt), pausedBy: pausedBy)
        }
        return pauses
    }

    public func pause(_ pause: SourcePause) async throws -> Bool {
        let rows = try await client.checkedQuery(
            """
            INSERT INTO source_pause (source, paused_at, paused_by) VALUES (\(pause.source), \(pause.pausedAt.timeIntervalSince1970), \(pause.pausedBy))
            ON CONFLICT (source) DO NOTHING RETURNING source
            """,
            logger: logger
        )
        for try await _ in rows { return true }
        return false
    }

    public func resume(source: String) async throws -> Bool {
        let rows = try await client.checkedQuery("DELETE FROM source_pause WHERE source = \(source) RETURNING source", logger: logger)
        for try await _ in rows { return true }
        return false
    }

    public func searchKeys() async throws -> [SearchKey] {
        let rows = try await client.checkedQuery("SELECT uid, name, domains, expires, created_at FROM search_key ORDER BY created_at, uid", logger: logger)
        var keys: [SearchKey] = []
        for try await (uid, name, domains, expires, createdAt) in rows.decode((String, String, String, Double?, Double).self) {
            keys.append(SearchKey(
                uid: uid, name: name, domains: SearchKeyDomains.decode(domains), expires: expires.map(Date.init(timeIntervalSince1970:)),
                createdAt: Date(timeIntervalSince1970: createdAt)
            ))
        }
        return keys
    }

    public func addSearchKey(_ key: SearchKey) async throws {
        let domains = SearchKeyDomains.encode(key.domains)
        try await client.checkedQuery(
            """
            INSERT INTO search_key (uid, name, domains, expires, created_at)
            VALUES (\(key.uid), \(key.name), \(domains), \(key.expires?.timeIntervalSince1970), \(key.createdAt.timeIntervalSince1970))
            """,
            logger: logger
        )
    }

    public func revokeSearchKey(uid: String) async throws -> Bool {
        let rows = try await client.checkedQuery("DELETE FROM search_key WHERE uid = \(uid) RETURNING uid", logger: logger)
        for try await _ in rows { return true }
        return false
    }

    public func storageBytes() async throws -> Int {
        for try await bytes in try await client.checkedQuery("SELECT pg_database_size(current_database())", logger: logger).decode(Int64.self) {
            return Int(bytes)
        }
        return 0
    }

    /// One query; a failure says what is wrong with the server in words (``PostgresUnavailable``), not the driver's.
    public func checkHealth() async throws {
        do {
            _ = try await postgresIndex.lastCommitNumber()
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw PostgresUnavailable(location: postgresLocation, reason: PostgresUnavailable.explain(error, postgresLocation), mayPassOnRetry: true)
        }
    }

    /// Inserts the unit's row if missing, and keeps its source and domain current.
    private static func ensureRow(_ connection: PostgresConnection, _ unit: UnitState, logger: Logger) async throws {
        try await connection.checkedQuery(
            """
            INSERT INTO unit_state (unit, source, domain) VALUES (\(unit.unit), \(unit.source), \(unit.domain))
            ON CONFLICT (unit) DO UPDATE SET source = EXCLUDED.source, domain = EXCLUDED.domain
            """,
            logger: logger
        )
    }
}

/// The columns of `unit_state` read into a ``UnitState``.
enum UnitStateColumns {
    static let list = """
        unit, source, domain, last_success_at, fingerprint, item_count, last_attempt_at, last_result, last_error, failures,
        retry_at, runner, forced_run, run_mode, last_incremental_at, sync_state_at, settled_until, settled_under
        """

    static func state(from row: PostgresRow) throws -> UnitState {
        let (unit, source, domain, lastSuccess, fingerprint, itemCount, lastAttempt, lastResult, lastError, failures, retryAt, runner, forced, mode, incremental, stateAt, settledUntil, settledUnder) =
            try row.decode(
                (String, String, String, Double?, String?, Int?, Double?, String?, String?, Int, Double?, String?, Bool, String?, Double?, Double?, Double?, String?).self
            )
        var state = UnitState(unit: unit, source: source, domain: domain)
        state.lastSuccessAt = lastSuccess.map(Date.init(timeIntervalSince1970:))
        state.fingerprint = fingerprint
        state.itemCount = itemCount
        state.lastAttemptAt = lastAttempt.map(Date.init(timeIntervalSince1970:))
        state.lastResult = lastResult.flatMap(UnitResult.init(rawValue:))
        state.lastError = lastError
        state.failures = failures
        state.retryAt = retryAt.map(Date.init(timeIntervalSince1970:))
        state.runner = runner
        state.forcedRun = forced
        state.runMode = mode.flatMap(SyncMode.init(rawValue:))
        state.lastIncrementalAt = incremental.map(Date.init(timeIntervalSince1970:))
        state.syncStateAt = stateAt.map(Date.init(timeIntervalSince1970:))
        state.settledUntil = settledUntil.map(Date.init(timeIntervalSince1970:))
        state.settledUnder = settledUnder
        return state
    }
}
