public import Foundation
public import Indexing
public import PluginAPI

/// The writes of a unit's run: its start, its batches, its final commit or how it ended, and operators' cancels. One role of a ``SchedulerStore``.
public protocol RunStore: Sendable {
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
}
