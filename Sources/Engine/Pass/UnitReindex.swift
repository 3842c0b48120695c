import SchedulerConfig
import Foundation
import Indexing
import Logging
import PluginAPI

/// One full reindex of one unit: stream the plugin's items into the index in atomic batches, then delete the
/// domain's items this run did not produce and record the success, in one final commit.
///
/// If the plugin fails, or the run would delete more than `maxDeleteRatio` of the domain, nothing is deleted
/// and the last-indexed date does not move; the batches already committed hold fresh items and stay.
struct UnitReindex {
    /// A run that did not succeed, with what it had done.
    struct Failure: Error {
        var message: String
        var indexed: Int
        var rejected: Int
    }

    /// What a successful run did.
    struct Result {
        var indexed: Int
        var deleted: Int
        var rejected: Int
        var finishedAt: Date
    }

    /// The checkpoint committed with each batch, under the batch name `run/<unit>`.
    struct Checkpoint: Codable {
        var startedAt: Date
        var baselineCommit: Int64
        var committedItems: Int
    }

    let plan: UnitPlan
    let unit: UnitState
    let configuration: SchedulerConfiguration
    let index: SQLiteSearchIndex
    let state: SchedulerState
    let registry: PluginRegistry
    let clock: any WallClock
    let logger: Logger
    let batchSize: Int
    let force: Bool

    func run() async throws -> Result {
        let startedAt = clock.now()
        try await state.recordAttemptStart(unit, at: startedAt)
        // Every item this run writes gets a later commit number than this one.
        let baseline = try await index.lastCommitNumber()
        let itemsBefore = try await index.itemCount(inDomain: plan.unit.domain)
        let rejections = RejectionLog(logger: logger)
        let context = PluginContext(
            source: plan.unit.source, partition: plan.unit.partition, domain: plan.unit.domain, deepLink: plan.settings.deepLink,
            baseDirectory: configuration.directory, logger: logger, rejections: rejections
        )
        let expiration = TimeInterval((plan.settings.expiration ?? configuration.scheduler.defaultExpiration).components.seconds)
        var indexed = 0
        func failure(_ message: String) -> Failure {
            Failure(message: message, indexed: indexed, rejected: rejections.count)
        }

        var batch: [SearchableItem] = []
        func commitBatch() async throws {
            try Task.checkCancellation()
            let taken = try await index.domainsHolding(batch.map(\.uniqueIdentifier), outside: plan.unit.domain)
            if !taken.isEmpty {
                batch.removeAll { item in
                    guard let holder = taken[item.uniqueIdentifier] else { return false }
                    rejections.reject(item.uniqueIdentifier, reason: "the identifier is already used by an item of domain '\(holder)'; identifiers are unique in the whole index, so make them unique per unit (prefix them with the partition), or purge that domain if its source was removed")
                    return true
                }
            }
            let checkpoint = Checkpoint(startedAt: startedAt, baselineCommit: baseline, committedItems: indexed + batch.count)
            let clientState = IndexBatch.ClientState(batchName: "run/\(plan.unit.key)", data: try JSONEncoder().encode(checkpoint))
            indexed += try await index.commit(IndexBatch(operations: [.upsert(batch)], clientState: clientState)).upserted
            batch.removeAll(keepingCapacity: true)
        }
        do {
            let plugin = try plan.makePlugin(registry: registry, context: context)
            for try await produced in plugin.items() {
                var item = produced
                guard DomainIdentifier.isWithin(item.domainIdentifier, plan.unit.domain) else {
                    rejections.reject(item.uniqueIdentifier, reason: "domain '\(item.domainIdentifier)' is outside the unit's domain '\(plan.unit.domain)'")
                    continue
                }
                if item.contentURL == nil { item.contentURL = context.contentURL(for: item.uniqueIdentifier) }
                if item.expirationDate == nil { item.expirationDate = startedAt.addingTimeInterval(expiration) }
                do {
                    try item.validate()
                } catch {
                    rejections.reject(item.uniqueIdentifier, reason: error.description)
                    continue
                }
                batch.append(item)
                if batch.count >= batchSize { try await commitBatch() }
            }
            if !batch.isEmpty { try await commitBatch() }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw failure("the plugin failed: \(error); nothing was deleted and the last-indexed date did not move")
        }
        try Task.checkCancellation()

        let stale = try await index.itemCount(inDomain: plan.unit.domain, committedThrough: baseline)
        let ratio = plan.settings.maxDeleteRatio ?? configuration.scheduler.defaultMaxDeleteRatio
        if !force, itemsBefore > 0, Double(stale) / Double(itemsBefore) > ratio {
            throw failure(
                "the run produced \(indexed) items and would delete \(stale) of the \(itemsBefore) in \(plan.unit.domain) "
                    + "(\(Int((Double(stale) / Double(itemsBefore) * 100).rounded()))%), more than maxDeleteRatio \(ratio); "
                    + "nothing was deleted. Check the source, or run with --force if this is intended"
            )
        }
        let finishedAt = clock.now()
        let unit = unit, fingerprint = plan.fingerprint, count = indexed
        let final = try await index.commit(
            IndexBatch(operations: [.deleteStale(domain: plan.unit.domain, committedThrough: baseline)]),
            alongside: { db, _ in
                try SchedulerState.recordSuccess(db, unit: unit, at: finishedAt, fingerprint: fingerprint, itemCount: count)
            }
        )
        return Result(indexed: indexed, deleted: final.deleted, rejected: rejections.count, finishedAt: finishedAt)
    }
}
