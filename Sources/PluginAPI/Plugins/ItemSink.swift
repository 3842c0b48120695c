import Logging

/// Where a plugin sends what it produces, one piece at a time, from its own task: items, identifiers to delete, and
/// states.
///
/// The host writes them to the index in batches, so sending may wait (a fast source is slowed to the pace of the
/// index, and never piles items up in memory) and throws when the run must stop (the index failed, the task was
/// cancelled): a plugin lets that error propagate.
///
/// A state (``SyncState``) says how far the plugin got: it is committed in the same transaction as the items and
/// deletions sent before it (never before them), and the last one of a successful run is handed to the next run
/// (``PluginContext/state``). A crash can make a plugin send something again, never skip it.
public protocol ItemSink {
    mutating func send(_ item: SearchableItem) async throws
    /// Deletes the item `identifier` of the unit's domain (an incremental run's deletion; a full run deletes what it
    /// did not send).
    mutating func delete(identifier: String) async throws
    /// Records how far the plugin got, after what it sent so far.
    mutating func send(state: SyncState) async throws
}

extension ItemSink {
    /// Sends `value`, encoded, as the run's last state. A state over ``SyncState/maxBytes`` cannot be kept: a full
    /// run then ends without one (which clears the last, so the next incremental run is full), while an incremental
    /// run throws ``SyncStateUnusable``, since the last state, kept, would no longer say what the index holds.
    public mutating func send(finalState value: some Encodable, context: PluginContext) async throws {
        do {
            try await send(state: SyncState(encoding: value))
        } catch let invalid as SyncState.Invalid {
            guard context.mode == .full else { throw SyncStateUnusable("the state cannot be kept: \(invalid)") }
            context.logger.notice("the state is not kept: the next incremental run is a full one", metadata: ["reason": "\(invalid)"])
        }
    }
}
