public import Foundation

/// Purges of domains, final or restorable, and the restore of a restorable one. One role of a ``SchedulerStore``.
public protocol PurgeStore: Sendable {
    /// Deletes `domain` and every domain under it from the index in one transaction: gone from every search when this
    /// returns. Restorable until `until` when it is given (a purge a configuration change caused; see
    /// ``restorePurge(domain:endingCheckpoints:)``) and no earlier purge of the same domain is still being reclaimed: the rows and the
    /// units' states are kept, the units only decided again. Otherwise final: the successes of the units there are
    /// forgotten (so they reindex at once when they run again).
    func purge(domain: String, restorableUntil until: Date?) async throws -> PurgeOutcome

    /// Undoes the restorable purge of exactly `domain` if its grace has not ended by the index's clock, in one
    /// transaction: its items are searchable again, the units there keep the state they had and are decided again,
    /// and the client states named `endingCheckpoints` are forgotten (the checkpoints of interrupted runs of those
    /// units: their baseline predates the restore, which may renumber the rows). Returns how many items it brought
    /// back, or `nil` when there is no such purge (none, final, expired, or its rows being reclaimed).
    func restorePurge(domain: String, endingCheckpoints batchNames: [String]) async throws -> Int?
}
