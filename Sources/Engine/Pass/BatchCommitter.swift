import AsyncAlgorithms
import Foundation
import Indexing
import PluginAPI
import Store
import Synchronization

/// Admits and writes a run's batches to the store, in the order they come, while the plugin produces the next one:
/// the batches reach it through a channel with no buffer, and each is admitted (``ItemAdmission``) while the one
/// before it is written, so at most one batch is being written, one admitted and one filled, and a slow store holds
/// the plugin back instead of memory growing. Each batch carries the run's checkpoint as client state (with the
/// plugin's last state), committed with it, in order.
final class BatchCommitter: Sendable {
    /// Writing a batch to the index failed: not the plugin's fault.
    struct IndexWriteFailure: Error {
        var error: any Error
    }

    /// A batch would take the run's deletions past what it may delete (``deleteBudget``): it is not written.
    struct TooManyDeletions: Error {
        /// Items deleted by the batches written before.
        var deleted: Int
        var budget: Int
    }

    /// An operator asked the run to stop (``SchedulerStore/requestCancel(source:by:)``): it stopped after a batch.
    struct Cancelled: Error {
        /// Who asked.
        var by: String
    }

    /// The changes the plugin sent since the last batch (not admitted yet), and the last state it sent.
    struct Batch: Sendable {
        var changes: RunChanges
        var state: SyncState?
    }

    private struct Progress {
        /// Items written so far, an identifier sent twice counting twice.
        var written = 0
        /// Of those, the items stored with the same content already.
        var unchanged = 0
        /// Items deleted so far.
        var deleted = 0
        /// The state of the last batch written.
        var state: SyncState?
        /// Why the writing stopped, when it failed.
        var failure: (any Error)?
    }

    let batches = AsyncChannel<Batch>()
    private let admission: ItemAdmission
    private let store: any SchedulerStore
    private let domain: String
    private let rejections: RejectionLog
    /// How many deletions the run may send, at most; unlimited when `nil`.
    private let deleteBudget: Int?
    private let checkpoint: @Sendable (_ committedItems: Int, _ state: SyncState?) throws -> IndexBatch.ClientState
    /// The unit whose cancel requests are read after each batch; `nil` for none.
    private let cancellable: String?
    private let progress = Mutex(Progress())

    init(
        admission: ItemAdmission, store: any SchedulerStore, domain: String, rejections: RejectionLog, deleteBudget: Int? = nil,
        cancellable unit: String? = nil,
        checkpoint: @escaping @Sendable (_ committedItems: Int, _ state: SyncState?) throws -> IndexBatch.ClientState
    ) {
        cancellable = unit
        self.admission = admission
        self.store = store
        self.domain = domain
        self.rejections = rejections
        self.deleteBudget = deleteBudget
        self.checkpoint = checkpoint
    }

    /// Items written so far.
    var written: Int { progress.withLock { $0.written } }

    /// Items deleted so far.
    var deleted: Int { progress.withLock { $0.deleted } }

    /// Items written so far that were stored with the same content already.
    var unchanged: Int { progress.withLock { $0.unchanged } }

    /// The state committed with the last batch written.
    var committedState: SyncState? { progress.withLock { $0.state } }

    /// Why writing stopped, if it did: a ``IndexWriteFailure``, ``TooManyDeletions``, ``Cancelled``, a `LeaseLost` or a
    /// `CancellationError`.
    var failure: (any Error)? { progress.withLock { $0.failure } }

    /// Writes every batch sent until the channel is finished; on a failure, records it, finishes the channel (so a
    /// producer waiting to send is released) and throws it.
    func commitAll() async throws {
        do {
            try await withThrowingTaskGroup(of: Void.self) { writing in
                var written = true
                for await batch in batches {
                    try Task.checkCancellation()
                    let admission = admission
                    let admitted = batch.changes.admitted(
                        defaultExpiration: admission.expiration, item: admission.admit, deletion: admission.admitDeletion
                    )
                    // The batch before is written meanwhile, in the one child task.
                    if !written { try await writing.next() }
                    writing.addTask {
                        do {
                            try await self.commit(admitted, state: batch.state)
                        } catch {
                            // Told at once, so the plugin stops at its next batch rather than one later.
                            throw self.stop(error)
                        }
                    }
                    written = false
                }
                try await writing.waitForAll()
            }
            try Task.checkCancellation()
        } catch {
            throw stop(error)
        }
    }

    /// Records why writing stopped (the first reason only), finishes the channel so that a producer waiting to send
    /// is released, and returns the reason.
    private func stop(_ error: any Error) -> any Error {
        let reason: any Error = Task.isCancelled ? CancellationError()
            : error is CancellationError || error is LeaseLost || error is TooManyDeletions || error is IndexWriteFailure || error is Cancelled
            ? error : IndexWriteFailure(error: error)
        let failure = progress.withLock { progress in
            if progress.failure == nil { progress.failure = reason }
            return progress.failure ?? reason
        }
        batches.finish()
        return failure
    }

    /// How often a running plugin looks for an operator's cancel between batches.
    static let cancelPollInterval: Duration = .seconds(1)

    /// Runs `produce` (the plugin) while looking for an operator's cancel every ``cancelPollInterval``: a cancel
    /// requested meanwhile stops the writing (no batch is committed after it) and cancels `produce`, whatever it is
    /// doing (a program that prints an item a second is stopped, not waited for), then throws ``Cancelled``.
    func producing<Produced: Sendable>(_ produce: @escaping @Sendable () async throws -> Produced) async throws -> Produced {
        guard let cancellable else { return try await produce() }
        return try await withThrowingTaskGroup(of: Produced?.self) { group in
            group.addTask { try await produce() }
            group.addTask {
                while true {
                    try await Task.sleep(for: Self.cancelPollInterval)
                    // A look that fails (the database busy a moment) is tried again a second later: it fails no run.
                    if let by = try? await self.store.cancelRequest(unit: cancellable) { throw self.stop(Cancelled(by: by)) }
                }
            }
            // The plugin's end (or failure) ends the watch; a cancel found ends the plugin.
            defer { group.cancelAll() }
            guard let produced = try await group.next() ?? nil else { throw CancellationError() }
            return produced
        }
    }

    /// Writes `changes`, admitted, with the checkpoint holding `state`, after the batches before it.
    private func commit(_ changes: RunChanges, state: SyncState?) async throws {
        // Nothing is written once writing stopped (a cancel seen while this batch waited its turn).
        if let failure { throw failure }
        let (written, deleted) = progress.withLock { ($0.written, $0.deleted) }
        if let deleteBudget, deleted + changes.deletions.count > deleteBudget {
            throw TooManyDeletions(deleted: deleted, budget: deleteBudget)
        }
        let checkpoint = try checkpoint(written + changes.items.count, state)
        let outcome = try await store.writeRunBatch(changes, domain: domain, checkpoint: checkpoint)
        let deletions = Set(changes.deletions.map { Array($0.utf8) })
        for held in outcome.taken {
            let refused = deletions.contains(Array(held.identifier.utf8)) ? "not deleted" : "not written"
            rejections.reject(held.identifier, reason: "\(refused): the identifier is held by an item of domain '\(held.domain)', outside the unit's; identifiers are unique in the whole index, so make them unique per unit (prefix them with the partition), or purge that domain if its source was removed")
        }
        progress.withLock {
            $0.written += outcome.upserted
            $0.unchanged += outcome.unchanged
            $0.deleted += outcome.deleted
            $0.state = state
        }
        // A batch boundary: where an operator's cancel stops the run, this batch committed.
        if let cancellable, let by = try await store.cancelRequest(unit: cancellable) { throw Cancelled(by: by) }
    }
}
