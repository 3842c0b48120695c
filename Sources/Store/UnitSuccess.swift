public import Foundation
public import PluginAPI

/// What a successful run records about its unit, in the same commit as its final change to the index.
public struct UnitSuccess: Sendable, Hashable {
    /// The unit as the run found it (its key, source and domain).
    public var unit: UnitState
    /// The new last-indexed date.
    public var finishedAt: Date
    /// The fingerprint of the settings the run used.
    public var fingerprint: String
    /// How many distinct items the run produced (a full run), or the last full run did (an incremental one keeps it:
    /// its deletions are measured against it).
    public var itemCount: Int
    /// A full run (resumed or not) moves the last-indexed date and the fingerprint; an incremental one only its own date.
    public var mode: SyncMode
    /// The last state the plugin sent, handed to the next incremental run; `nil` when it sent none (an incremental
    /// run then keeps the one it was given).
    public var state: SyncState?
    /// The run's line in the history, committed with the success; its `deleted` counts the run's deletions before
    /// the final commit, and the store adds the sweep's.
    public var history: RunRecord?

    public init(
        unit: UnitState, finishedAt: Date, fingerprint: String, itemCount: Int, mode: SyncMode = .full, state: SyncState? = nil,
        history: RunRecord? = nil
    ) {
        self.history = history
        self.unit = unit
        self.finishedAt = finishedAt
        self.fingerprint = fingerprint
        self.itemCount = itemCount
        self.mode = mode
        self.state = state
    }
}
