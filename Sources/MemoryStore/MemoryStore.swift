public import Foundation
public import HostSupport
public import Indexing
public import PluginAPI
public import Store

/// The memory twin of the store: the same protocols as the SQLite and PostgreSQL stores (store, index, leases),
/// held in this process's memory, each operation one change under one lock, so tests of the code above the
/// store run in milliseconds without files or a server. The same conformance suite holds it to the real stores'
/// answers; it keeps nothing across processes, so it is never a store the service runs on.
///
/// Leases expire by the system clock, as the real ones do by the database's, whatever clock items are dated by.
public struct MemoryStore: SchedulerStore {
    let database: MemoryDatabase
    let memoryIndex: MemorySearchIndex
    /// How many runs the history keeps.
    public let historyLength: Int
    /// The lease every write of this view checks first (see ``fenced(by:)``); `nil` for the unfenced store.
    let fence: Lease?
    /// The clock leases expire by.
    let leaseClock: any WallClock

    public var index: any SearchIndex { memoryIndex }
    public var leases: (any LeaseStore)? { self }
    public var location: String { "memory" }

    /// A new, empty store; items without an expiration date live `timeToLive` by `clock`.
    public init(
        timeToLive: Duration = StoreDefaults.timeToLive, historyLength: Int = StoreDefaults.historyLength, clock: any WallClock = SystemWallClock()
    ) {
        database = MemoryDatabase()
        memoryIndex = MemorySearchIndex(tables: database, timeToLive: timeToLive, clock: clock)
        self.historyLength = historyLength
        fence = nil
        leaseClock = SystemWallClock()
    }

    /// A view of `store` whose writes are fenced by `fence`.
    init(sharing store: MemoryStore, fence: Lease) {
        database = store.database
        memoryIndex = store.memoryIndex
        historyLength = store.historyLength
        self.fence = fence
        leaseClock = store.leaseClock
    }

    public func units() async throws -> [String: UnitState] {
        database.read(\.units)
    }

    public func unitsToDecide(at now: Date, settledUnder signature: String) async throws -> [String: UnitState] {
        database.read { tables in
            tables.units.filter { _, state in state.settledUnder != signature || (state.settledUntil.map { $0 <= now } ?? true) }
        }
    }

    public func settle(_ units: [UnitSettlement], under signature: String, completing: PassSettlement?) async throws {
        database.change { tables in
            for settled in units {
                guard var state = tables.units[settled.unit], state.lastAttemptAt == settled.lastAttemptAt, state.lastResult == settled.lastResult
                else { continue }
                state.settledUntil = settled.until
                state.settledUnder = signature
                tables.units[settled.unit] = state
            }
            if let completing { tables.passSettlement = completing }
        }
    }

    public func passSettlement() async throws -> PassSettlement? {
        database.read(\.passSettlement)
    }

    public func unit(_ key: String) async throws -> UnitState? {
        database.read { $0.units[key] }
    }

    public func recordAttemptStart(_ unit: UnitState, at date: Date, forced: Bool, mode: SyncMode) async throws {
        try database.change { tables in
            try tables.check(fence)
            tables.updateUnit(unit) { state in
                state.lastAttemptAt = date
                state.lastResult = .running
                state.lastError = nil
                state.runner = RunnerIdentity.current
                state.forcedRun = forced
                state.runMode = mode
            }
            tables.cancelRequests[unit.unit] = nil
        }
    }

    public func writeRunBatch(_ changes: RunChanges, domain: String, checkpoint: IndexBatch.ClientState) async throws -> RunBatchOutcome {
        try IndexBatch(operations: changes.operations(without: []), clientState: checkpoint).validate()
        let now = memoryIndex.clock.now()
        let expiration = DefaultExpiration(lifetime: memoryIndex.timeToLive.seconds, from: now)
        return try database.change { tables in
            try tables.check(fence)
            // Checked and written in one change: no other writer can take an identifier in between.
            var seen: Set<ExactText> = []
            let taken = (changes.items.map(\.uniqueIdentifier) + changes.deletions).compactMap { identifier -> HeldIdentifier? in
                guard seen.insert(ExactText(identifier)).inserted, let row = tables.rows[ExactText(identifier)],
                    tables.isLive(row), !DomainIdentifier.isWithin(row.item.domainIdentifier, domain)
                else { return nil }
                return HeldIdentifier(identifier: row.item.uniqueIdentifier, domain: row.item.domainIdentifier)
            }
            let batch = IndexBatch(operations: changes.operations(without: taken), clientState: checkpoint, defaultExpiration: changes.defaultExpiration)
            let outcome = tables.apply(batch, now: now, defaultExpiration: expiration)
            return RunBatchOutcome(upserted: outcome.upserted, unchanged: outcome.unchanged, deleted: outcome.deleted, taken: taken)
        }
    }

    public func finishRun(_ success: UnitSuccess, deletingItemsCommittedThrough baseline: Int64?) async throws -> Int {
        let sweep = baseline.map { [IndexBatch.Operation.deleteStale(domain: success.unit.domain, committedThrough: $0)] } ?? []
        let keep = historyLength
        return try memoryIndex.commit(IndexBatch(operations: sweep)) { tables, outcome in
            try tables.check(fence)
            if var history = success.history {
                history.deleted += outcome.deleted
                tables.appendHistory(history, keep: keep)
            }
            // A full run replaces the state; an incremental one when it sent one.
            let replacesState = success.mode != .incremental || success.state != nil
            if replacesState { tables.syncStates[success.unit.unit] = success.state }
            tables.updateUnit(success.unit) { state in
                if success.mode == .incremental {
                    state.lastIncrementalAt = success.finishedAt
                } else {
                    state.lastSuccessAt = success.finishedAt
                    state.fingerprint = success.fingerprint
                }
                if replacesState { state.syncStateAt = success.state == nil ? nil : success.finishedAt }
                state.itemCount = success.itemCount
                state.lastAttemptAt = success.finishedAt
                state.settle(.succeeded)
            }
        }.deleted
    }

    public func syncState(unit: String) async throws -> SyncState? {
        database.read { $0.syncStates[unit] }
    }

    public func recordAttemptEnd(_ unit: UnitState, result: UnitResult, error: String, failures: Int, retryAt: Date, history: RunRecord?) async throws {
        let keep = historyLength
        try database.change { tables in
            try tables.check(fence)
            if let history { tables.appendHistory(history, keep: keep) }
            tables.updateUnit(unit) { state in
                state.lastResult = result
                state.lastError = error
                state.failures = failures
                state.retryAt = retryAt
                state.runner = nil
                state.forcedRun = false
                state.runMode = nil
            }
            tables.cancelRequests[unit.unit] = nil
        }
    }

    public func requestCancel(source: String, by: String) async throws -> [String] {
        database.change { tables in
            let running = tables.units.values.filter { $0.source == source && $0.lastResult == .running }.map(\.unit).sorted()
            for unit in running { tables.cancelRequests[unit] = by }
            return running
        }
    }

    public func cancelRequest(unit: String) async throws -> String? {
        database.read { tables in tables.units[unit]?.lastResult == .running ? tables.cancelRequests[unit] : nil }
    }

    public func purge(domain: String, restorableUntil until: Date?) async throws -> PurgeOutcome {
        let now = memoryIndex.clock.now()
        var result = PurgeOutcome(deleted: 0, restorableUntil: nil)
        _ = try memoryIndex.commit(IndexBatch()) { tables, outcome in
            try tables.check(fence)
            let (removed, restorable) = tables.purge(
                domain: domain, commitNumber: outcome.commitNumber, deletingThisCommitsRows: false, now: now, restorableUntil: until
            )
            // Counted: the purged domain may lie under a unit's, which holds fewer items, or none, while its state stands.
            tables.outsideChanges += 1
            if restorable { tables.unsettle(within: domain) } else { Self.forgetSuccesses(within: domain, in: &tables) }
            result = PurgeOutcome(deleted: removed, restorableUntil: restorable ? until : nil)
        }
        return result
    }

    public func restorePurge(domain: String, endingCheckpoints batchNames: [String]) async throws -> Int? {
        let now = memoryIndex.clock.now()
        var restored: Int?
        _ = try memoryIndex.commit(IndexBatch()) { tables, _ in
            try tables.check(fence)
            restored = tables.restore(domain: domain, now: now)
            guard restored != nil else { return }
            for name in batchNames { tables.clientStates[name] = nil }
            tables.outsideChanges += 1
            tables.unsettle(within: domain)
        }
        return restored
    }

    private static func forgetSuccesses(within domain: String, in tables: inout MemoryTables) {
        for (key, var state) in tables.units where DomainIdentifier.isWithin(state.domain, domain) {
            state.lastSuccessAt = nil
            state.fingerprint = nil
            state.itemCount = nil
            state.lastIncrementalAt = nil
            state.syncStateAt = nil
            tables.syncStates[key] = nil
            state.settle(.purged)
            state.settledUntil = nil
            tables.units[key] = state
        }
    }

    public func markInterrupted() async throws -> [UnitState] {
        let now = leaseClock.now()
        return database.change { tables in
            var interrupted: [UnitState] = []
            for (key, var state) in tables.units where state.lastResult == .running {
                if let lease = tables.leases[Lease.unitName(key)], lease.expiresAt > now { continue }
                interrupted.append(state)
                state.lastResult = .interrupted
                state.lastError = UnitState.interruptedError
                state.runner = nil
                state.settledUntil = nil
                tables.units[key] = state
            }
            return interrupted
        }
    }

    public func append(_ run: RunRecord) async throws {
        let keep = historyLength
        try database.change { tables in
            try tables.check(fence)
            tables.appendHistory(run, keep: keep)
        }
    }

    public func peakItemCount(unit: String, since: Date) async throws -> Int? {
        database.read { tables in
            // Incremental runs count writes, not the domain's size: they neither set the peak nor reset it.
            let runs = tables.history.filter { $0.run.unit == unit && $0.run.mode != .incremental }
            let reset = runs.last { $0.run.decision == .purged || ($0.run.decision == .reindexed && $0.run.forced) }?.id ?? 0
            return runs.filter { $0.id >= reset && $0.run.decision == .reindexed && $0.run.finishedAt >= since }.map(\.run.indexed).max()
        }
    }

    public func history(source: String?, unit: String?, limit: Int) async throws -> [RunRecord] {
        database.read { tables in
            Array(tables.history.reversed().lazy.map(\.run).filter { (source == nil || $0.source == source) && (unit == nil || $0.unit == unit) }.prefix(limit))
        }
    }

    public func pausedSources() async throws -> [String: SourcePause] {
        database.read(\.pauses)
    }

    public func pause(_ pause: SourcePause) async throws -> Bool {
        database.change { tables in
            guard tables.pauses[pause.source] == nil else { return false }
            tables.pauses[pause.source] = pause
            return true
        }
    }

    public func resume(source: String) async throws -> Bool {
        database.change { tables in tables.pauses.removeValue(forKey: source) != nil }
    }

    public func searchKeys() async throws -> [SearchKey] {
        database.read { $0.searchKeys }
    }

    public func addSearchKey(_ key: SearchKey) async throws {
        database.change { $0.searchKeys.append(key) }
    }

    public func revokeSearchKey(uid: String) async throws -> Bool {
        database.change { tables in
            guard let index = tables.searchKeys.firstIndex(where: { $0.uid == uid }) else { return false }
            tables.searchKeys.remove(at: index)
            return true
        }
    }

    /// Nothing to check: memory always answers.
    public func checkHealth() async throws {}

    /// Nothing on disk.
    public func storageBytes() async throws -> Int { 0 }
}

extension UnitState {
    /// Ends the unit's attempt in `result` with nothing owed: no error, no failures in a row, no backoff, no runner.
    mutating func settle(_ result: UnitResult) {
        lastResult = result
        lastError = nil
        failures = 0
        retryAt = nil
        runner = nil
        forcedRun = false
        runMode = nil
    }
}
