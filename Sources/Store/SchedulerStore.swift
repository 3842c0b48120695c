public import Foundation
public import Indexing
public import PluginAPI

/// Where the scheduler keeps the searchable index and its memory of every unit: one database, so that a change
/// to the index and the state that describes it are committed together and cannot disagree.
///
/// A backend (SQLite, PostgreSQL) implements each operation the reconcile pass needs as one whole transaction;
/// the engine never sees the database. Every backend passes the same conformance suite.
public protocol SchedulerStore: Sendable {
    /// The searchable index, for searches, counts and the expiry sweep.
    var index: any SearchIndex { get }

    /// The leases of a store several replicas share (PostgreSQL); `nil` for a store one machine owns (SQLite),
    /// where the pass lock beside the file already keeps passes apart.
    var leases: (any LeaseStore)? { get }

    /// Every unit the store remembers, by unit key.
    func units() async throws -> [String: UnitState]

    /// The units a pass settled under `signature` must decide at `now` (the due index): those the pass settled
    /// under another signature or not at all, those whose state changed since (every change but ``settle(_:under:completing:)``
    /// unsettles a unit), and those settled until `now` or before. One query, whatever the number of units.
    func unitsToDecide(at now: Date, settledUnder signature: String) async throws -> [String: UnitState]

    /// Records, in one transaction, until when each unit needs no decision (``UnitState/settledUntil``) under the
    /// pass's `signature`, skipping a unit whose state changed since the pass read it; then, with `completing`, that
    /// a whole pass settled every unit of the configuration it signs (``PassSettlement``).
    func settle(_ units: [UnitSettlement], under signature: String, completing: PassSettlement?) async throws

    /// What the last whole pass that settled every unit recorded; `nil` before the first.
    func passSettlement() async throws -> PassSettlement?

    /// What the store remembers of one unit, `nil` for a unit never run: read under the unit's lease before it
    /// runs, so it costs one row whatever the number of units.
    func unit(_ key: String) async throws -> UnitState?

    /// Notes that an attempt started, before any item is written: which process runs it, whether it is forced (an
    /// interrupted forced run is redone forced), and its mode (an interrupted full run may be resumed).
    func recordAttemptStart(_ unit: UnitState, at date: Date, forced: Bool, mode: SyncMode) async throws

    /// Writes one batch of a run of a unit of `domain`, with the run's checkpoint as client state, in one
    /// transaction: its items and deletions, in order. Items and deletions whose identifier an item of another domain
    /// holds are left out and returned. The items are valid (a run admits each one, ``SearchableItem/validate(limits:)``):
    /// a store need not check them again.
    func writeRunBatch(_ changes: RunChanges, domain: String, checkpoint: IndexBatch.ClientState) async throws -> RunBatchOutcome

    /// The final commit of a successful run, in one transaction: for a full run (a `baseline`), deletes the items of
    /// the unit's domain last written by commit `baseline` or earlier (those the run did not produce); records
    /// `success` and its state, and its line in the history (``UnitSuccess/history``, the sweep's deletions added),
    /// so that no crash leaves a success the history does not show. Returns how many items were deleted.
    func finishRun(_ success: UnitSuccess, deletingItemsCommittedThrough baseline: Int64?) async throws -> Int

    /// The state the unit's last successful run committed (``UnitSuccess/state``), for its next incremental run.
    func syncState(unit: String) async throws -> SyncState?

    /// Records how an attempt ended without success (`failed` or `cancelled`), why, the failures in a row since the
    /// last success, and when the next attempt may start; with `history`, its line in the history, in the same
    /// transaction.
    func recordAttemptEnd(_ unit: UnitState, result: UnitResult, error: String, failures: Int, retryAt: Date, history: RunRecord?) async throws

    /// Asks the runs of `source` going now, on any replica, to stop (their plugins stopped within seconds, nothing committed after): marks each unit
    /// of the source whose attempt is `running` (the mark ends with its attempt); returns those units.
    func requestCancel(source: String, by: String) async throws -> [String]

    /// Who asked the run of `unit` going now to stop; `nil` when nobody did.
    func cancelRequest(unit: String) async throws -> String?

    /// Deletes `domain` and every domain under it from the index in one transaction: gone from every search when this
    /// returns. Restorable until `until` when it is given (a purge a configuration change caused; see
    /// ``restorePurge(domain:)``) and no earlier purge of the same domain is still being reclaimed: the rows and the
    /// units' states are kept, the units only decided again. Otherwise final: the successes of the units there are
    /// forgotten (so they reindex at once when they run again).
    func purge(domain: String, restorableUntil until: Date?) async throws -> PurgeOutcome

    /// Undoes the restorable purge of exactly `domain` if its grace has not ended by the index's clock, in one
    /// transaction: its items are searchable again, the units there keep the state they had and are decided again,
    /// and the client states named `endingCheckpoints` are forgotten (the checkpoints of interrupted runs of those
    /// units: their baseline predates the restore, which may renumber the rows). Returns how many items it brought
    /// back, or `nil` when there is no such purge (none, final, expired, or its rows being reclaimed).
    func restorePurge(domain: String, endingCheckpoints batchNames: [String]) async throws -> Int?

    /// Marks the attempts still `running` as `interrupted` and returns them: called by a pass that holds the
    /// pass lock. With leases, only the units whose lease is not live are marked: another replica may be running
    /// the others.
    func markInterrupted() async throws -> [UnitState]

    /// Appends a run to the history, keeping the store's configured number of runs.
    func append(_ run: RunRecord) async throws

    /// The most items a successful full run of `unit` produced since `since`, counting only its last purge or forced
    /// full success and the runs after it (a forced run sets a new size); `nil` when the history kept has none.
    /// Incremental runs, whose counts are of writes, play no part.
    func peakItemCount(unit: String, since: Date) async throws -> Int?

    /// The most recent runs first, of one source or all, of one unit or all.
    func history(source: String?, unit: String?, limit: Int) async throws -> [RunRecord]

    /// The sources operators paused, by source name.
    func pausedSources() async throws -> [String: SourcePause]

    /// Pauses `pause.source`; a source already paused keeps its first pause. Returns whether it was running before.
    func pause(_ pause: SourcePause) async throws -> Bool

    /// Resumes `source`; returns whether it was paused.
    func resume(source: String) async throws -> Bool

    /// Throws when the database cannot serve: for `/healthz`.
    func checkHealth() async throws

    /// Where the store is, for people: a file path, or a URL without its password.
    var location: String { get }

    /// Bytes the store occupies.
    func storageBytes() async throws -> Int
}

/// What ``SchedulerStore/purge(domain:restorableUntil:)`` did.
public struct PurgeOutcome: Sendable, Hashable {
    /// The items gone from search.
    public var deleted: Int
    /// Until when the purge can be undone; `nil` when it is final.
    public var restorableUntil: Date?

    public init(deleted: Int, restorableUntil: Date?) {
        self.deleted = deleted
        self.restorableUntil = restorableUntil
    }
}

extension SchedulerStore {
    /// Purges `domain` at once and for good, as an operator asks: returns how many items were deleted.
    public func purge(domain: String) async throws -> Int {
        try await purge(domain: domain, restorableUntil: nil).deleted
    }

    /// Writes `items` as one batch of a run (no deletions).
    public func writeRunBatch(_ items: [SearchableItem], domain: String, checkpoint: IndexBatch.ClientState) async throws -> RunBatchOutcome {
        try await writeRunBatch(RunChanges(upserting: items), domain: domain, checkpoint: checkpoint)
    }

    /// The most recent runs first, of one source or all.
    public func history(source: String?, limit: Int) async throws -> [RunRecord] {
        try await history(source: source, unit: nil, limit: limit)
    }

    /// Records a failed attempt and when the next may start, and with `history` its line in the history.
    public func recordFailure(_ unit: UnitState, error: String, failures: Int, retryAt: Date, history: RunRecord? = nil) async throws {
        try await recordAttemptEnd(unit, result: .failed, error: error, failures: failures, retryAt: retryAt, history: history)
    }

    /// Notes that a full attempt started.
    public func recordAttemptStart(_ unit: UnitState, at date: Date, forced: Bool) async throws {
        try await recordAttemptStart(unit, at: date, forced: forced, mode: .full)
    }
}
