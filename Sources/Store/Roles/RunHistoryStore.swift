public import Foundation

/// The history of runs: what `scheduler history`, the unit pages and the delete guard read. One role of a ``SchedulerStore``.
public protocol RunHistoryStore: Sendable {
    /// Appends a run to the history, keeping the store's configured number of runs.
    func append(_ run: RunRecord) async throws

    /// The most items a successful full run of `unit` produced since `since`, counting only its last purge or forced
    /// full success and the runs after it (a forced run sets a new size); `nil` when the history kept has none.
    /// Incremental runs, whose counts are of writes, play no part.
    func peakItemCount(unit: String, since: Date) async throws -> Int?

    /// The most recent runs first, of one source or all, of one unit or all.
    func history(source: String?, unit: String?, limit: Int) async throws -> [RunRecord]
}
