import Foundation
import GRDB
public import Indexing
import Synchronization

/// Keeping the search postings (``SearchPostings``): built once, then caught up with the commits a tenth of a second
/// after they are made (a search catches them up itself when few rows are new), built again when a commit wrote too
/// many rows to read one by one or stale words pile up.
extension SQLiteSearchIndex: SearchStructureKeeping {
    /// How long the keeper waits between two looks at the last commit.
    static let postingsFollowInterval = Duration.milliseconds(100)

    public var searchStructureRows: Int { postings.rows }

    public func keepSearchStructures() async throws {
        try await Self.keepPostings { self }
    }

    /// Refreshes the postings of the index `current` gives (``refreshSearchPostings()``) every
    /// ``postingsFollowInterval``, until cancelled: the keeper of an index, and of a search copy's current file.
    static func keepPostings(of current: @Sendable () async -> SQLiteSearchIndex?) async throws {
        while true {
            try await current()?.refreshSearchPostings()
            try await Task.sleep(for: postingsFollowInterval)
        }
    }

    /// Builds the postings when there are none (or they hold too many stale words), else brings them to the last
    /// commit, or builds them again when that commit wrote more rows than ``SearchPostings/caughtUpByKeeper``.
    package func refreshSearchPostings() async throws {
        guard postings.fields != .off, !postings.gaveUp else { return }
        if !postings.needsBuild {
            let caughtUp = try await database.read { [postings] db in
                try postings.catchUp(db, to: Self.lastCommitNumber(db), maxRows: SearchPostings.caughtUpByKeeper, waiting: true)
            }
            guard caughtUp == .tooManyRows else { return }
        }
        try await buildSearchPostings()
    }

    /// Drops the postings for good, a build under way included (``SearchPostings/retire()``): what a search copy does
    /// with the index of a file it replaces.
    package func retireSearchPostings() {
        postings.retire()
    }

    /// Builds the postings from every row, in one read, and serves them from then on.
    package func buildSearchPostings() async throws {
        let start = ContinuousClock.now
        let cancelled = Mutex(false)
        let built: SearchPostings.Held
        do {
            built = try await withTaskCancellationHandler {
                try await database.read { [postings] db in try postings.build(db, isCancelled: { cancelled.withLock { $0 } }) }
            } onCancel: {
                cancelled.withLock { $0 = true }
            }
        } catch let error as SearchPostings.TooManyWords {
            logger.warning("\(error)")
            return
        }
        postings.install(built)
        if let summary = postings.summary {
            logger.info("built the search postings", metadata: [
                "commit": "\(summary.commitNumber)", "rows": "\(summary.rows)", "words": "\(summary.words)",
                "megabytes": "\(summary.bytes / 1_000_000)", "seconds": "\((ContinuousClock.now - start).seconds)",
            ])
        }
    }
}
