import Foundation
import Indexing
import Store
import PluginAPI
import SchedulerConfig

/// The sink a unit's plugin sends its items into: each item is checked (inside the unit's domain, valid), completed
/// (deep link, expiration) and gathered into batches (`batchSize` items or ``IndexBatch/maxUpsertBytes``, whichever
/// comes first), which the ``BatchCommitter`` writes while the plugin goes on (items whose identifier another
/// domain holds are refused there, in the batch's transaction).
struct BatchWriter: ItemSink {
    let plan: UnitPlan
    let context: PluginContext
    let committer: BatchCommitter
    let batchSize: Int
    /// The expiration date of items that carry none.
    let expirationDate: Date
    private var batch: [SearchableItem] = []
    private var batchBytes = 0

    init(plan: UnitPlan, context: PluginContext, committer: BatchCommitter, batchSize: Int, expirationDate: Date) {
        self.plan = plan
        self.context = context
        self.committer = committer
        self.batchSize = batchSize
        self.expirationDate = expirationDate
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
        if batch.count >= batchSize || batchBytes >= IndexBatch.maxUpsertBytes { try await handOver() }
    }

    /// Hands the last items over and tells the committer no more come.
    mutating func finish() async throws {
        try await handOver()
        committer.batches.finish()
    }

    /// Hands the gathered items to the committer, waiting while it writes the previous batch; throws what stopped
    /// the committer, if it stopped.
    private mutating func handOver() async throws {
        guard !batch.isEmpty else { return }
        if let failure = committer.failure { throw failure }
        await committer.batches.send(batch)
        if let failure = committer.failure { throw failure }
        try Task.checkCancellation()
        batch.removeAll(keepingCapacity: true)
        batchBytes = 0
    }
}
