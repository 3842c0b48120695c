public import Foundation
public import Indexing
public import PluginAPI

/// Where the scheduler keeps the searchable index and its memory of every unit: one database, so that a change
/// to the index and the state that describes it are committed together and cannot disagree.
///
/// A backend (SQLite, PostgreSQL) implements each operation the reconcile pass needs as one whole transaction;
/// the engine never sees the database. Every backend passes the same conformance suite. The requirements come in
/// roles (``UnitStateStore``, ``RunStore``, ``PurgeStore``, ``RunHistoryStore``, ``SourcePauseStore``,
/// ``SearchKeyStore``, ``StoreUsage``), so that a backend is written, and a caller asks for, one role at a time.
public protocol SchedulerStore: UnitStateStore, RunStore, PurgeStore, RunHistoryStore, SourcePauseStore, SearchKeyStore, StoreUsage {
    /// The searchable index, for searches, counts and the expiry sweep.
    var index: any SearchIndex { get }

    /// The leases of a store several replicas share (PostgreSQL); `nil` for a store one machine owns (SQLite),
    /// where the pass lock beside the file already keeps passes apart.
    var leases: (any LeaseStore)? { get }
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
