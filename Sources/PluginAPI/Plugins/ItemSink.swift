/// Where a plugin sends the items it produces, one at a time, from its own task.
///
/// The host writes them to the index in batches, so ``send(_:)`` may wait (a fast source is slowed to the pace of
/// the index, and never piles items up in memory) and throws when the run must stop (the index failed, the task
/// was cancelled): a plugin lets that error propagate.
public protocol ItemSink {
    mutating func send(_ item: SearchableItem) async throws
}
