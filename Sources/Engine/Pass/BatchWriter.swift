import Foundation
import Indexing
import Store
import PluginAPI
import SchedulerConfig

/// The sink a unit's plugin sends into: items and deletions gathered, in order, into batches (`batchSize` items and
/// deletions or ``IndexBatch/maxUpsertBytes``, whichever comes first) that the ``BatchCommitter`` admits and writes
/// while the plugin goes on. A state goes with the next batch handed over, after everything sent before it.
/// Deletions count only in an incremental run: a full or resumed run deletes what it did not send by its sweep,
/// under the delete guard.
struct BatchWriter: ItemSink {
    let committer: BatchCommitter
    let batchSize: Int
    /// Whether deletions are written (an incremental run); else they are counted in ``ignoredDeletions``.
    let writesDeletions: Bool
    private(set) var ignoredDeletions = 0
    private var changes = RunChanges()
    private var batchBytes = 0
    /// The last state the plugin sent, and whether it has been handed over.
    private(set) var state: SyncState?
    private var stateHandedOver = true

    init(committer: BatchCommitter, batchSize: Int, writesDeletions: Bool) {
        self.committer = committer
        self.batchSize = batchSize
        self.writesDeletions = writesDeletions
    }

    mutating func send(_ item: SearchableItem) async throws {
        changes.upsert(item)
        batchBytes += item.byteCount
        if changes.count >= batchSize || batchBytes >= IndexBatch.maxUpsertBytes { try await handOver() }
    }

    mutating func delete(identifier: String) async throws {
        guard writesDeletions else {
            ignoredDeletions += 1
            return
        }
        changes.delete(identifier)
        batchBytes += identifier.utf8.count
        if changes.count >= batchSize { try await handOver() }
    }

    mutating func send(state: SyncState) async throws {
        self.state = state
        stateHandedOver = false
    }

    /// Hands the last changes and state over and tells the committer no more come.
    mutating func finish() async throws {
        try await handOver()
        committer.batches.finish()
    }

    /// Hands the gathered changes to the committer with the last state, waiting while it writes the previous batch;
    /// throws what stopped the committer, if it stopped.
    private mutating func handOver() async throws {
        guard !changes.isEmpty || !stateHandedOver else { return }
        if let failure = committer.failure { throw failure }
        await committer.batches.send(BatchCommitter.Batch(changes: changes, state: state))
        if let failure = committer.failure { throw failure }
        try Task.checkCancellation()
        changes = RunChanges()
        batchBytes = 0
        stateHandedOver = true
    }
}
