import Foundation
import HostSupport
import Indexing
import Logging
import PluginAPI
import SchedulerConfig
import Store

/// One run of one unit. A full run streams the plugin's items into the index in atomic batches, then deletes the
/// domain's items this run did not produce and records the success, in one final commit. An incremental run hands the
/// plugin the state the last success committed and writes what it sends (items and deletions) without sweeping. A
/// resumed run takes an interrupted full run up again from the state its last batch committed, with the same
/// baseline, so what the earlier attempt wrote counts as produced.
///
/// If the plugin fails, writing to the index fails, or the run would delete more than `maxDeleteRatio` of the
/// domain, nothing more is deleted and the last-indexed date does not move; the batches already committed hold fresh
/// items and stay. A full run's ratio is checked against the items the domain holds, and against its largest
/// successful run within `maxDeleteWindow`, so a feed shrinking a little on every run cannot empty the domain run by
/// run; an incremental run's deletions may not pass the ratio of the items the domain held when it started.
struct UnitReindex {
    /// What a run that did not succeed had done when it ended.
    struct Progress {
        var indexed: Int
        var deleted: Int
        var rejected: Int
        /// The first of them, as the history keeps them.
        var rejections: [RunRecord.Rejection]
        /// The kind of run it was.
        var mode: SyncMode
    }

    /// A run that did not succeed, with what it had done.
    struct Failure: Error {
        var message: String
        var progress: Progress
    }

    /// A run an operator cancelled, stopped after a batch, with what it had done.
    struct Cancelled: Error {
        var by: String
        var progress: Progress
    }

    /// An interrupted full run older than this starts over instead of resuming: what the source dropped since the
    /// stopped attempt wrote it would otherwise stay until the next full run.
    static let maxResumeAge: TimeInterval = 86_400

    /// What a successful run did.
    struct Result {
        /// Distinct items the run wrote (an identifier emitted twice counts once); an incremental run's items written.
        var indexed: Int
        /// Items the run sent that the index held with the same content: only marked as sent.
        var unchanged: Int
        var deleted: Int
        var rejected: Int
        var finishedAt: Date
        /// The kind of run it was (a resume asked for without a checkpoint to go on from runs full).
        var mode: SyncMode
    }

    /// The checkpoint committed with each batch, under the batch name `run/<unit>`: what a resumed run goes on from.
    struct Checkpoint: Codable {
        var startedAt: Date
        var baselineCommit: Int64
        /// Items of this run sent to the index so far, those another domain held included.
        var committedItems: Int
        /// The kind of run (absent in checkpoints written before incremental runs: full).
        var mode: SyncMode?
        /// The last state the plugin sent before this batch's end.
        var state: Data?
        /// The fingerprint of the settings the run used: a resume with other settings starts over.
        var fingerprint: String?

        /// The last checkpoint `state`'s unit committed, when it is its last attempt's (one left by an earlier run
        /// says nothing of this one).
        static func ofAttempt(_ state: UnitState, index: any SearchIndex) async throws -> Checkpoint? {
            guard let attempt = state.lastAttemptAt, let data = try await index.lastClientState(batchName: UnitReindex.batchName(unit: state.unit)),
                let checkpoint = try? JSONDecoder().decode(Checkpoint.self, from: data),
                abs(checkpoint.startedAt.timeIntervalSince(attempt)) < 0.001
            else { return nil }
            return checkpoint
        }
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
    let mode: SyncMode
    /// The run's line in the history, committed with its success once its counts are filled in.
    let history: RunRecord

    /// Where this run starts from: its start, baseline commit, items already committed and the plugin's state.
    private struct Start {
        var mode: SyncMode
        var startedAt: Date
        var baseline: Int64
        var committedItems = 0
        var state: SyncState?
    }

    /// The start of this run: a resume goes on from the interrupted attempt's last checkpoint when it is that
    /// attempt's and holds a state (else the run is full); an incremental run from the last success's state.
    private func start() async throws -> Start {
        let now = clock.now()
        switch mode {
        case .resume:
            if let checkpoint = try await Checkpoint.ofAttempt(unit, index: store.index), checkpoint.mode != .incremental,
               checkpoint.fingerprint == plan.fingerprint, now.timeIntervalSince(checkpoint.startedAt) <= Self.maxResumeAge,
               let json = checkpoint.state, let state = try? SyncState(json: json) {
                return Start(mode: .resume, startedAt: checkpoint.startedAt, baseline: checkpoint.baselineCommit, committedItems: checkpoint.committedItems, state: state)
            }
            logger.info("no checkpoint of the interrupted run to go on from: a full run starts over")
        case .incremental:
            if let state = try await store.syncState(unit: plan.unit.key) {
                return Start(mode: .incremental, startedAt: now, baseline: try await store.index.lastCommitNumber(), state: state)
            }
            logger.warning("no state committed to go on from: a full run instead of an incremental one")
        case .full:
            break
        }
        // Every item this run writes gets a later commit number than this one.
        return Start(mode: .full, startedAt: now, baseline: try await store.index.lastCommitNumber())
    }

    func run() async throws -> Result {
        let start = try await start()
        do {
            return try await attempt(from: start)
        } catch let unusable as SyncStateUnusable where start.mode != .full {
            // What the plugin sent stays; a full run from a new baseline sweeps what it no longer holds.
            logger.warning("the plugin could not use its state: a full run instead", metadata: ["reason": "\(unusable.reason)"])
            return try await attempt(from: Start(mode: .full, startedAt: clock.now(), baseline: try await store.index.lastCommitNumber()))
        }
    }

    /// The batch name the run's checkpoints are committed under.
    private var batchName: String { Self.batchName(unit: plan.unit.key) }

    /// The batch name the runs of `unit` commit their checkpoints under.
    static func batchName(unit: String) -> String { "run/\(unit)" }

    /// One attempt at the run, from `start`; throws ``SyncStateUnusable`` as the plugin threw it.
    private func attempt(from start: Start) async throws -> Result {
        try await store.recordAttemptStart(unit, at: start.startedAt, forced: force, mode: start.mode)
        let attempt = try await Attempt(start, of: self)
        let writer = try await produce(attempt)
        try Task.checkCancellation()
        if writer.ignoredDeletions > 0 {
            logger.info("deletions ignored: a \(start.mode.rawValue) run deletes what it does not send", metadata: ["deletions": "\(writer.ignoredDeletions)"])
        }
        return start.mode == .incremental ? try await finishIncremental(attempt, writer) : try await finishFull(attempt, writer)
    }

    /// What one attempt works with: the plugin's context, the committer its batches go through, and what its
    /// failures report.
    private struct Attempt {
        let start: Start
        let context: PluginContext
        let rejections: RejectionLog
        let committer: BatchCommitter
        /// The items the domain held when the attempt began.
        let itemsBefore: Int
        /// What an incremental run's deletions are measured by: the items the last full run left (``UnitState/itemCount``).
        let base: Int
        /// The share of `base` an incremental run may delete (`maxDeleteRatio`).
        let ratio: Double

        init(_ start: Start, of run: UnitReindex) async throws {
            let (plan, configuration) = (run.plan, run.configuration)
            self.start = start
            itemsBefore = try await run.store.index.itemCount(inDomain: plan.unit.domain)
            rejections = RejectionLog(logger: run.logger)
            context = PluginContext(
                source: plan.unit.source, partition: plan.unit.partition, domain: plan.unit.domain, deepLink: plan.settings.deepLink,
                baseDirectory: configuration.directory, logger: run.logger, rejections: rejections, processes: run.processes,
                now: run.clock.now(), mode: start.mode, state: start.state
            )
            ratio = plan.settings.maxDeleteRatio ?? configuration.scheduler.defaultMaxDeleteRatio
            // An incremental run may shrink the domain by the ratio of what the last full run left (`itemCount`),
            // whatever shrank it since (earlier incremental runs, failed ones): each deletion it asks counts, found or
            // not. A full one deletes by its sweep.
            base = run.unit.itemCount ?? itemsBefore
            let deleteBudget = start.mode == .incremental && !run.force
                ? max(0, Int((Double(base) * ratio).rounded(.down)) - max(0, base - itemsBefore)) : nil
            let expiration = TimeInterval((plan.settings.expiration ?? configuration.scheduler.defaultExpiration).components.seconds)
            let admission = ItemAdmission(plan: plan, context: context, expiration: DefaultExpiration(lifetime: expiration, from: run.clock.now()))
            let (batchName, fingerprint) = (run.batchName, plan.fingerprint)
            committer = BatchCommitter(
                admission: admission, store: run.store, domain: plan.unit.domain, rejections: rejections, deleteBudget: deleteBudget,
                cancellable: plan.unit.key
            ) { committed, state in
                let checkpoint = Checkpoint(
                    startedAt: start.startedAt, baselineCommit: start.baseline, committedItems: start.committedItems + committed,
                    mode: start.mode, state: state?.json, fingerprint: fingerprint
                )
                return IndexBatch.ClientState(batchName: batchName, data: try JSONEncoder().encode(checkpoint))
            }
        }

        /// What the attempt had done.
        var progress: Progress {
            Progress(
                indexed: committer.written, deleted: committer.deleted, rejected: rejections.count,
                rejections: RunRecord.kept(from: rejections), mode: start.mode
            )
        }

        /// A failure with what the attempt had done.
        func failure(_ message: String) -> Failure {
            Failure(message: message, progress: progress)
        }

        /// What a failed attempt left as it was.
        var untouched: String {
            start.mode == .incremental ? "the state did not move" : "nothing was deleted and the last-indexed date did not move"
        }
    }

    /// Runs the plugin while the committer writes its batches, and says why when either fails.
    private func produce(_ attempt: Attempt) async throws -> BatchWriter {
        do {
            return try await produceAndCommit(attempt)
        } catch let error where error is CancellationError || Task.isCancelled {
            // Stopped (a shutdown): whatever surfaced first (a database statement interrupted, a pipe closed), the run
            // is interrupted, not failed, and the next pass redoes it.
            throw CancellationError()
        } catch let lost as LeaseLost {
            throw lost
        } catch let unusable as SyncStateUnusable where attempt.start.mode != .full {
            throw unusable
        } catch let cancelled as BatchCommitter.Cancelled {
            throw Cancelled(by: cancelled.by, progress: attempt.progress)
        } catch let failed as BatchCommitter.IndexWriteFailure {
            throw attempt.failure("writing to the index failed: \(failed.error); \(attempt.untouched)")
        } catch let guarded as BatchCommitter.TooManyDeletions {
            throw attempt.failure(
                "the incremental run would shrink \(plan.unit.domain) by more than maxDeleteRatio \(attempt.ratio) of the \(attempt.base) items "
                    + "of the last full run (it holds \(attempt.itemsBefore); \(guarded.budget) deletions at most, \(guarded.deleted) made by its "
                    + "earlier batches); the state did not move. Check the source, or run with --force if this is intended"
            )
        } catch {
            throw attempt.failure("the plugin failed: \(error); \(attempt.untouched)")
        }
    }

    /// The plugin produces while the committer writes in a child task: one batch in each. An operator's cancel stops
    /// the plugin wherever it is (``BatchCommitter/producing(_:)``).
    private func produceAndCommit(_ attempt: Attempt) async throws -> BatchWriter {
        let (committer, context, plan, batchSize) = (attempt.committer, attempt.context, plan, batchSize)
        let writesDeletions = attempt.start.mode == .incremental
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await committer.commitAll() }
            let writer: BatchWriter
            do {
                writer = try await committer.producing {
                    var writer = BatchWriter(committer: committer, batchSize: batchSize, writesDeletions: writesDeletions)
                    let plugin = try plan.makePlugin(context: context)
                    try await plugin.produce(into: &writer)
                    try await writer.finish()
                    return writer
                }
            } catch {
                committer.batches.finish()
                // The batches handed over before the plugin failed are committed, as they hold fresh items; a
                // cancellation (a shutdown, an operator's cancel) stops the committer as well: nothing after it.
                if !(error is CancellationError || committer.failure is BatchCommitter.Cancelled) { try? await group.waitForAll() }
                // What stopped the committer is the cause, whatever the plugin made of it.
                throw committer.failure ?? error
            }
            try await group.waitForAll()
            // A cancel seen as the plugin ended: the run stops before its final commit.
            if let failure = committer.failure { throw failure }
            return writer
        }
    }

    /// Records an incremental run's success: what it sent is written; nothing is swept. The unit's item count stays
    /// the last full run's: what the next incremental runs' deletions are measured by.
    private func finishIncremental(_ attempt: Attempt, _ writer: BatchWriter) async throws -> Result {
        let (committer, rejected) = (attempt.committer, attempt.rejections.count)
        let finishedAt = clock.now()
        let count = try await store.index.itemCount(inDomain: plan.unit.domain)
        _ = try await store.finishRun(
            UnitSuccess(
                unit: unit, finishedAt: finishedAt, fingerprint: plan.fingerprint, itemCount: unit.itemCount ?? count, mode: .incremental,
                state: writer.state,
                history: historyLine(indexed: committer.written, deleted: committer.deleted, rejections: attempt.rejections, finishedAt: finishedAt, mode: .incremental)
            ),
            deletingItemsCommittedThrough: nil
        )
        return Result(
            indexed: committer.written, unchanged: committer.unchanged, deleted: committer.deleted, rejected: rejected,
            finishedAt: finishedAt, mode: .incremental
        )
    }

    /// Records a full (or resumed) run's success after the delete-ratio checks, sweeping the domain's items the run
    /// did not produce in the same commit.
    private func finishFull(_ attempt: Attempt, _ writer: BatchWriter) async throws -> Result {
        let (committer, rejected, baseline, mode) = (attempt.committer, attempt.rejections.count, attempt.start.baseline, attempt.start.mode)
        let stale = try await store.index.itemCount(inDomain: plan.unit.domain, committedThrough: baseline)
        // Items this run wrote, each identifier once, whatever the plugin repeated.
        let produced = try await store.index.itemCount(inDomain: plan.unit.domain) - stale
        if !force { try await checkDeleteRatio(stale: stale, produced: produced, itemsBefore: attempt.itemsBefore, failure: attempt.failure) }
        let finishedAt = clock.now()
        let swept = try await store.finishRun(
            UnitSuccess(
                unit: unit, finishedAt: finishedAt, fingerprint: plan.fingerprint, itemCount: produced, mode: mode, state: writer.state,
                history: historyLine(indexed: produced, deleted: committer.deleted, rejections: attempt.rejections, finishedAt: finishedAt, mode: mode)
            ),
            // No item can become stale now (every later commit is newer): without any, the sweep is skipped.
            deletingItemsCommittedThrough: stale > 0 ? baseline : nil
        )
        return Result(
            // Both of distinct identifiers at most: an item a plugin repeated is unchanged each time it comes again.
            indexed: produced, unchanged: min(committer.unchanged, produced), deleted: swept + committer.deleted, rejected: rejected,
            finishedAt: finishedAt, mode: mode
        )
    }

    /// ``history`` with what the run did (the store adds the final commit's deletions).
    private func historyLine(indexed: Int, deleted: Int, rejections: RejectionLog, finishedAt: Date, mode: SyncMode) -> RunRecord {
        var line = history
        line.decision = .reindexed
        (line.indexed, line.deleted, line.rejected, line.finishedAt, line.mode) = (indexed, deleted, rejections.count, finishedAt, mode)
        line.rejections = RunRecord.kept(from: rejections)
        return line
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
