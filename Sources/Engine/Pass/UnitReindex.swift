import Foundation
import HostSupport
import Indexing
import Logging
import PluginAPI
import SchedulerConfig
import Store

/// One full reindex of one unit: stream the plugin's items into the index in atomic batches, then delete the
/// domain's items this run did not produce and record the success, in one final commit.
///
/// If the plugin fails, writing to the index fails, or the run would delete more than `maxDeleteRatio` of the
/// domain, nothing is deleted and the last-indexed date does not move; the batches already committed hold fresh
/// items and stay. The ratio is checked against the items the domain holds, and against its largest successful
/// run within `maxDeleteWindow`, so a feed shrinking a little on every run cannot empty the domain run by run.
struct UnitReindex {
    /// A run that did not succeed, with what it had done.
    struct Failure: Error {
        var message: String
        var indexed: Int
        var rejected: Int
    }

    /// What a successful run did.
    struct Result {
        /// Distinct items the run wrote (an identifier emitted twice counts once).
        var indexed: Int
        var deleted: Int
        var rejected: Int
        var finishedAt: Date
    }

    /// The checkpoint committed with each batch, under the batch name `run/<unit>`.
    struct Checkpoint: Codable {
        var startedAt: Date
        var baselineCommit: Int64
        /// Items of this run sent to the index so far, those another domain held included.
        var committedItems: Int
    }

    let plan: UnitPlan
    let unit: UnitState
    let configuration: SchedulerConfiguration
    let store: any SchedulerStore
    let processes: ProcessLedger
    let clock: any WallClock
    let logger: Logger
    let batchSize: Int
    let force: Bool

    func run() async throws -> Result {
        let startedAt = clock.now()
        try await store.recordAttemptStart(unit, at: startedAt, forced: force)
        // Every item this run writes gets a later commit number than this one.
        let baseline = try await store.index.lastCommitNumber()
        let itemsBefore = try await store.index.itemCount(inDomain: plan.unit.domain)
        let rejections = RejectionLog(logger: logger)
        let context = PluginContext(
            source: plan.unit.source, partition: plan.unit.partition, domain: plan.unit.domain, deepLink: plan.settings.deepLink,
            baseDirectory: configuration.directory, logger: logger, rejections: rejections, processes: processes,
            now: startedAt
        )
        let expiration = TimeInterval((plan.settings.expiration ?? configuration.scheduler.defaultExpiration).components.seconds)
        let batchName = "run/\(plan.unit.key)"
        let committer = BatchCommitter(store: store, domain: plan.unit.domain, rejections: rejections) { committed in
            let checkpoint = Checkpoint(startedAt: startedAt, baselineCommit: baseline, committedItems: committed)
            return IndexBatch.ClientState(batchName: batchName, data: try JSONEncoder().encode(checkpoint))
        }
        var writer = BatchWriter(
            plan: plan, context: context, committer: committer, batchSize: batchSize, expirationDate: startedAt.addingTimeInterval(expiration)
        )
        func failure(_ message: String) -> Failure {
            Failure(message: message, indexed: committer.written, rejected: rejections.count)
        }
        do {
            // The plugin produces in this task while the committer writes in a child task: one batch in each.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await committer.commitAll() }
                do {
                    let plugin = try plan.makePlugin(context: context)
                    try await plugin.produce(into: &writer)
                    try await writer.finish()
                } catch {
                    committer.batches.finish()
                    // The batches handed over before the plugin failed are committed, as they hold fresh items; a
                    // cancellation stops the committer as well.
                    if !(error is CancellationError) { try? await group.waitForAll() }
                    // What stopped the committer is the cause, whatever the plugin made of it.
                    throw committer.failure ?? error
                }
                try await group.waitForAll()
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch let lost as LeaseLost {
            throw lost
        } catch let failed as BatchCommitter.IndexWriteFailure {
            throw failure("writing to the index failed: \(failed.error); nothing was deleted and the last-indexed date did not move")
        } catch {
            throw failure("the plugin failed: \(error); nothing was deleted and the last-indexed date did not move")
        }
        try Task.checkCancellation()

        let stale = try await store.index.itemCount(inDomain: plan.unit.domain, committedThrough: baseline)
        // Items this run wrote, each identifier once, whatever the plugin repeated.
        let produced = try await store.index.itemCount(inDomain: plan.unit.domain) - stale
        if !force { try await checkDeleteRatio(stale: stale, produced: produced, itemsBefore: itemsBefore, failure: failure) }
        let finishedAt = clock.now()
        let deleted = try await store.finishRun(
            UnitSuccess(unit: unit, finishedAt: finishedAt, fingerprint: plan.fingerprint, itemCount: produced),
            deletingItemsCommittedThrough: baseline
        )
        return Result(indexed: produced, deleted: deleted, rejected: rejections.count, finishedAt: finishedAt)
    }

    /// Refuses a run that would delete more than `maxDeleteRatio` of the items the domain holds, or that leaves
    /// the domain that much smaller than its largest successful run within `maxDeleteWindow`.
    private func checkDeleteRatio(stale: Int, produced: Int, itemsBefore: Int, failure: (String) -> Failure) async throws {
        let ratio = plan.settings.maxDeleteRatio ?? configuration.scheduler.defaultMaxDeleteRatio
        let advice = "nothing was deleted. Check the source, or run with --force if this is intended"
        func percent(_ part: Int, of whole: Int) -> Int { Int((Double(part) / Double(whole) * 100).rounded()) }
        if itemsBefore > 0, Double(stale) / Double(itemsBefore) > ratio {
            throw failure(
                "the run produced \(produced) items and would delete \(stale) of the \(itemsBefore) in \(plan.unit.domain) "
                    + "(\(percent(stale, of: itemsBefore))%), more than maxDeleteRatio \(ratio); \(advice)"
            )
        }
        let window = plan.settings.maxDeleteWindow ?? configuration.scheduler.defaultMaxDeleteWindow
        let since = clock.now().addingTimeInterval(-TimeInterval(window.components.seconds))
        guard let peak = try await store.peakItemCount(unit: plan.unit.key, since: since), peak > produced else { return }
        if Double(peak - produced) / Double(peak) > ratio {
            throw failure(
                "the run produced \(produced) items, \(percent(peak - produced, of: peak))% fewer than the \(peak) of the largest "
                    + "success of \(plan.unit.key) within maxDeleteWindow \(DurationText.format(window)), more than maxDeleteRatio \(ratio); \(advice)"
            )
        }
    }
}
