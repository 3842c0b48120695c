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
