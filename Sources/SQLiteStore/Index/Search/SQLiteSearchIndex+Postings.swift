import Foundation
import GRDB
public import Indexing
import Synchronization

/// Keeping the search postings (``SearchPostings``): built once, then caught up with the commits a tenth of a second
/// after they are made (a search catches them up itself when few rows are new), step by step through a large import,
/// built again when stale entries pile up.
extension SQLiteSearchIndex: SearchStructureKeeping {
    /// How long the keeper waits between two looks at the last commit.
    static let postingsFollowInterval = Duration.milliseconds(100)

    public var searchStructureRows: Int { postings.rows }

    public func keepSearchStructures() async throws {
        try await Self.keepPostings { self }
    }

    /// Refreshes the postings of the index `current` gives (``refreshSearchPostings(rowsAStep:)``) every
    /// ``postingsFollowInterval``, until cancelled: the keeper of an index, and of a search copy's current file.
    static func keepPostings(of current: @Sendable () async -> SQLiteSearchIndex?) async throws {
        while true {
            try await current()?.refreshSearchPostings()
            try await Task.sleep(for: postingsFollowInterval)
        }
    }

    /// Brings the postings to the last commit (``stepSearchPostings(rowsAStep:)``), then builds them when there are
    /// none, one commit wrote more rows than a step reads, or they hold too many stale entries
    /// (``SearchPostings/isStale(_:)``, looked at as the index doubles or turns over).
    package func refreshSearchPostings(rowsAStep: Int = SearchPostings.caughtUpByKeeper) async throws {
        var build = try await stepSearchPostings(rowsAStep: rowsAStep)
        if !build, postings.isDueALook { build = try await database.read { [postings] db in try postings.isStale(db) } }
        if build { try await buildSearchPostings() }
    }

    /// Brings the postings, when held, to the last commit, `rowsAStep` rows a step, each under the lock for a moment:
    /// searches of the commits they hold use them between steps. Returns whether they must be built instead: none are
    /// held, or one commit wrote more rows than a step takes (``SearchPostings/stepOfOneCommit``).
    private func stepSearchPostings(rowsAStep: Int) async throws -> Bool {
        guard postings.fields != .off, !postings.gaveUp else { return false }
        while !postings.areMissing {
            try Task.checkCancellation()
            let caughtUp = try await database.read { [postings] db in
                try postings.catchUp(db, to: Self.lastCommitNumber(db), maxRows: rowsAStep, waiting: true, stepping: true)
            }
            if caughtUp != .stepped { return caughtUp == .tooManyRows || postings.areMissing }
        }
        return true
    }

    /// Brings the postings, when held, to the last commit when at most `maxRows` rows are newer (after a keeper's step
    /// under way, if any), and leaves more to the keeper: what a search copy's follower does after each page it
    /// applies, so that its searches find them at the copy's commit.
    package func catchUpSearchPostings(ifAtMost maxRows: Int) async throws {
        guard postings.fields != .off, !postings.gaveUp, !postings.areMissing else { return }
        _ = try await database.read { [postings] db in try postings.catchUp(db, to: Self.lastCommitNumber(db), maxRows: maxRows, waiting: true) }
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
