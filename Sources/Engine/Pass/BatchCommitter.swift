import AsyncAlgorithms
import Foundation
import Indexing
import PluginAPI
import Store
import Synchronization

/// Writes a run's batches to the store, in the order they come, while the plugin produces the next one: the
/// batches reach it through a channel with no buffer, so at most one batch is being written while one more is
/// filled, and a slow store holds the plugin back instead of memory growing. Each batch carries the run's
/// checkpoint as client state, committed with it, in order.
final class BatchCommitter: Sendable {
    /// Writing a batch to the index failed: not the plugin's fault.
    struct IndexWriteFailure: Error {
        var error: any Error
    }

    private struct Progress {
        /// Items written so far, an identifier sent twice counting twice.
        var written = 0
        /// Why the writing stopped, when it failed.
        var failure: (any Error)?
    }

    let batches = AsyncChannel<[SearchableItem]>()
    private let store: any SchedulerStore
    private let domain: String
    private let rejections: RejectionLog
    private let checkpoint: @Sendable (_ committedItems: Int) throws -> IndexBatch.ClientState
    private let progress = Mutex(Progress())

    init(
        store: any SchedulerStore, domain: String, rejections: RejectionLog,
        checkpoint: @escaping @Sendable (_ committedItems: Int) throws -> IndexBatch.ClientState
    ) {
        self.store = store
        self.domain = domain
        self.rejections = rejections
        self.checkpoint = checkpoint
    }

    /// Items written so far.
    var written: Int { progress.withLock { $0.written } }

    /// Why writing stopped, if it did: a ``IndexWriteFailure``, a `LeaseLost` or a `CancellationError`.
    var failure: (any Error)? { progress.withLock { $0.failure } }

    /// Writes every batch sent until the channel is finished; on a failure, records it, finishes the channel (so a
    /// producer waiting to send is released) and throws it.
    func commitAll() async throws {
        do {
            for await batch in batches {
                try Task.checkCancellation()
                try await commit(batch)
            }
            try Task.checkCancellation()
        } catch {
            let failure: any Error = error is CancellationError || error is LeaseLost ? error : IndexWriteFailure(error: error)
            progress.withLock { $0.failure = failure }
            batches.finish()
            throw failure
        }
    }

    private func commit(_ batch: [SearchableItem]) async throws {
        let state = try checkpoint(written + batch.count)
        let outcome = try await store.writeRunBatch(batch, domain: domain, checkpoint: state)
        for held in outcome.taken {
            rejections.reject(held.identifier, reason: "the identifier is already used by an item of domain '\(held.domain)'; identifiers are unique in the whole index, so make them unique per unit (prefix them with the partition), or purge that domain if its source was removed")
        }
        progress.withLock { $0.written += outcome.upserted }
    }
}
