import Foundation
import Indexing
import Store
import PluginAPI
import SchedulerConfig

/// The sink a unit's plugin sends its items into: each item is checked (inside the unit's domain, valid, its
/// identifier not held by another domain), completed (deep link, expiration) and written to the index in atomic
/// batches (`batchSize` items or ``IndexBatch/maxUpsertBytes``, whichever comes first), each carrying the run's
/// checkpoint as client state.
struct BatchWriter: ItemSink {
    /// Writing a batch to the index failed: not the plugin's fault.
    struct IndexWriteFailure: Error {
        var error: any Error
    }

    let plan: UnitPlan
    let context: PluginContext
    let store: any SchedulerStore
    let batchSize: Int
    /// The expiration date of items that carry none.
    let expirationDate: Date
    let checkpoint: (_ committedItems: Int) throws -> IndexBatch.ClientState
    private var batch: [SearchableItem] = []
    private var batchBytes = 0
    /// Items written so far, an identifier sent twice counting twice.
    private(set) var written = 0

    init(
        plan: UnitPlan, context: PluginContext, store: any SchedulerStore, batchSize: Int, expirationDate: Date,
        checkpoint: @escaping (_ committedItems: Int) throws -> IndexBatch.ClientState
    ) {
        self.plan = plan
        self.context = context
        self.store = store
        self.batchSize = batchSize
        self.expirationDate = expirationDate
        self.checkpoint = checkpoint
    }

    mutating func send(_ produced: SearchableItem) async throws {
        var item = produced
        guard DomainIdentifier.isWithin(item.domainIdentifier, plan.unit.domain) else {
            context.rejections.reject(item.uniqueIdentifier, reason: "domain '\(item.domainIdentifier)' is outside the unit's domain '\(plan.unit.domain)'")
            return
        }
        if item.contentURL == nil { item.contentURL = context.contentURL(for: item.uniqueIdentifier) }
        if item.expirationDate == nil { item.expirationDate = expirationDate }
        do {
            try item.validate()
        } catch {
            context.rejections.reject(item.uniqueIdentifier, reason: error.description)
            return
        }
        batch.append(item)
        batchBytes += item.byteCount
        if batch.count >= batchSize || batchBytes >= IndexBatch.maxUpsertBytes { try await flush() }
    }

    /// Commits the items not yet written.
    mutating func flush() async throws {
        guard !batch.isEmpty else { return }
        try Task.checkCancellation()
        do {
            let state = try checkpoint(written + batch.count)
            let outcome = try await store.writeRunBatch(batch, domain: plan.unit.domain, checkpoint: state)
            for (identifier, holder) in outcome.taken.sorted(by: { $0.key < $1.key }) {
                context.rejections.reject(identifier, reason: "the identifier is already used by an item of domain '\(holder)'; identifiers are unique in the whole index, so make them unique per unit (prefix them with the partition), or purge that domain if its source was removed")
            }
            written += outcome.upserted
        } catch is CancellationError {
            throw CancellationError()
        } catch let lost as LeaseLost {
            throw lost
        } catch {
            throw IndexWriteFailure(error: error)
        }
        batch.removeAll(keepingCapacity: true)
        batchBytes = 0
    }
}
