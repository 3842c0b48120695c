import CSystemCalls
import Foundation
import GRDB
import HostSupport
public import Indexing
import Synchronization

/// Keeping the search postings (``SearchPostings``): built once, then caught up with the commits a tenth of a second
/// after they are made (a search catches them up to its own commit first), step by step through a large import,
/// built again when stale entries pile up.
extension SQLiteSearchIndex: SearchStructureKeeping {
    /// How long the keeper waits between two looks at the last commit.
    static let postingsFollowInterval = Duration.milliseconds(100)

    public var searchStructureRows: Int { postings.rows }
    public var areWarming: Bool { postings.areMissing }

    public func readSavedSearchStructures() async throws {
        try await loadSavedSearchPostings()
    }
    public var searchesWithoutThem: Int { postings.searchesScanningRows }

    public func keepSearchStructures() async throws {
        try await Self.keepPostings { self }
    }

    public func saveSearchStructures(mayBuild: @Sendable () async throws -> Bool) async throws -> SearchStructuresSave {
        guard postings.fields != .off, !postings.gaveUp else { return .noneKept }
        let (before, failures) = (try await database.read(Self.savedPostingsToken), postingsSaving?.failuresInARow ?? 0)
        let leftABuild = try await refreshSearchPostings(mayBuild: mayBuild)
        if postings.gaveUp { return .noneKept }
        if leftABuild || postings.areMissing { return .notBuilt }
        if (postingsSaving?.failuresInARow ?? 0) > failures { return .failed }
        return try await database.read(Self.savedPostingsToken) != before ? .saved : .notDue
    }

    /// Which fields' words the postings saved beside the database at `databasePath` keep, read from the file's header;
    /// `nil` when there is none of this format: the setting a command told none keeps, so that its save serves the
    /// service that saved them.
    public static func savedPostingsFields(databasePath: String) -> SearchPostingsFields? {
        SavedPostingsFile(databasePath: databasePath).fields()
    }

    /// Refreshes the postings of the index `current` gives (``refreshSearchPostings(rowsAStep:)``) every
    /// ``postingsFollowInterval``, until cancelled: the keeper of an index, and of a search copy's current file. Beside
    /// it, as often, gives back the pages of their saved file when due (``SearchPostings/giveBackMappedPagesIfDue()``,
    /// which searches do too, ``SearchPostings/noteSearch()``): a refresh waits for a reading connection, which
    /// searches under load keep busy.
    static func keepPostings(of current: @escaping @Sendable () async -> SQLiteSearchIndex?) async throws {
        try await withThrowingTaskGroup { group in
            group.addTask {
                while true {
                    try await current()?.refreshSearchPostings()
                    try await Task.sleep(for: postingsFollowInterval)
                }
            }
            group.addTask {
                while true {
                    await current()?.postings.giveBackMappedPagesIfDue()
                    try await Task.sleep(for: postingsFollowInterval)
                }
            }
            try await group.next()
        }
    }

    /// Brings the postings to the last commit (``stepSearchPostings(rowsAStep:)``), then builds them when there are
    /// none, one commit wrote more rows than a step reads, or they hold too many stale entries
    /// (``SearchPostings/isStale(_:)``, looked at as the index doubles or turns over).
    /// At the first call, the postings are read from their saved file (``loadSavedSearchPostings()``) when there is a
    /// usable one; after, they are saved when due (``saveSearchPostingsIfDue()``).
    /// Unless `mayBuild` (asked only when postings are to be built), they are left as they are, unsaved (a command that
    /// exits, leaving the build to the service): returns whether it left one so.
    @discardableResult
    package func refreshSearchPostings(
        rowsAStep: Int = SearchPostings.caughtUpByKeeper, mayBuild: @Sendable () async throws -> Bool = { true }
    ) async throws -> Bool {
        try await loadSavedSearchPostings()
        var build = try await stepSearchPostings(rowsAStep: rowsAStep)
        if !build, postings.isDueALook { build = try await database.read { [postings] db in try postings.isStale(db) } }
        if build {
            guard try await mayBuild() else { return true }
            try await buildSearchPostings()
        } else if postings.recordsAreDue {
            try await makeCandidateRecords()
        }
        if let (saved, token) = try await saveSearchPostingsIfDue() { try await serveSavedSearchPostings(saved, token: token) }
        return false
    }

    /// Brings the postings, when held, to the last commit, `rowsAStep` rows a step, each under the lock for a moment:
    /// searches of the commits they hold use them between steps. Returns whether they must be built instead: none are
    /// held, or one commit wrote more rows than a step takes (``SearchPostings/stepOfOneCommit``). Rows caught up that
    /// take the process past the postings' memory bound, or bring more words than they keep, this step's or others'
    /// since the last look, drop them, said here (``SearchPostings/droppedByCatchUps()``).
    private func stepSearchPostings(rowsAStep: Int) async throws -> Bool {
        var caughtUp = SearchPostings.CatchUp.stepped
        while true {
            if let dropped = postings.droppedByCatchUps() {
                try await drop(for: dropped)
                return false
            }
            guard postings.fields != .off, !postings.gaveUp else { return false }
            guard caughtUp == .stepped else { return caughtUp == .tooManyRows || postings.areMissing }
            guard !postings.areMissing else { return true }
            try Task.checkCancellation()
            caughtUp = try await database.read { [postings] db in
                try postings.catchUp(db, to: Self.lastCommitNumber(db), maxRows: rowsAStep, stepping: true)
            }
        }
    }

    /// Drops the postings for good (``SearchPostings/retire()``), gives what they held back to the system (off the
    /// concurrency pool: freeing a build's bitmaps takes a while), and says why.
    private func drop(for reason: SearchPostings.Dropped) async throws {
        postingsSaving?.withdrawOffer()
        try await offThePool { [postings] _ in
            postings.retire()
            _ = csystem_release_free_memory()
        }
        logger.warning("\(reason)")
    }

    /// Brings the postings, when held, to the last commit when at most `maxRows` rows are newer (after a keeper's step
    /// under way, if any), and leaves more to the keeper: what a search copy's follower does after each page it
    /// applies, so that its searches find them at the copy's commit.
    package func catchUpSearchPostings(ifAtMost maxRows: Int) async throws {
        guard postings.fields != .off, !postings.gaveUp, !postings.areMissing else { return }
        _ = try await database.read { [postings] db in try postings.catchUp(db, to: Self.lastCommitNumber(db), maxRows: maxRows) }
    }

    /// Holds the saves of the postings back (`true`) or lets them go on: what a search copy does while it is made.
    package func holdSavingSearchPostings(_ held: Bool) {
        postingsSaving?.hold(held)
    }

    /// Drops the postings for good, a build under way included (``SearchPostings/retire()``): what a search copy does
    /// with the index of a file it replaces.
    package func retireSearchPostings() {
        postingsSaving?.withdrawOffer()
        postings.retire()
    }

    /// Builds the postings from every row, in one read, and serves them from then on.
    package func buildSearchPostings() async throws {
        let start = ContinuousClock.now
        guard let (held, merged) = try await buildUnlessDropped(words: true) else { return }
        if let install = postings.install(held), let merged { postingsSaving?.offer(merged, install: install) }
        if let summary = postings.summary {
            logger.info("built the search postings", metadata: [
                "commit": "\(summary.commitNumber)", "rows": "\(summary.rows)", "words": "\(summary.words)",
                "megabytes": "\(summary.bytes / 1_000_000)", "segments": "\(postings.segmentsOfLastBuild)",
                "seconds": "\((ContinuousClock.now - start).seconds)",
            ])
        }
    }

    /// Makes the candidate records again from every row, in one read (``SearchPostings/recordsAreDue``), and serves
    /// them from then on; the next save keeps them.
    private func makeCandidateRecords() async throws {
        let start = ContinuousClock.now
        let begun = postings.recordsStart
        let made: SearchPostings.Held
        do {
            guard let (held, _) = try await buildUnlessDropped(words: false) else { return }
            made = held
        } catch let failure as PostingsSegments.Failure {
            guard postings.install(nil, madeFrom: begun) else { return }
            logger.warning("could not write the candidate records made again beside the database (\(failure)): none are kept until the search postings are built again, and searches read rows")
            return
        }
        guard postings.install(made.records, madeFrom: begun) else { return }
        if made.records == nil { logger.warning("the candidate records hold more than \(postings.maxRecordedWords) distinct words: none are kept, searches read rows") }
        logger.info("made the candidate records again", metadata: [
            "rows": "\(made.records?.count ?? 0)", "megabytes": "\((made.records?.byteCount ?? 0) / 1_000_000)",
            "segments": "\(postings.segmentsOfLastBuild)", "seconds": "\((ContinuousClock.now - start).seconds)",
        ])
    }

    /// The postings (without `words`, the candidate records alone) of every row, in one read
    /// (``SearchPostings/build(_:words:isCancelled:)``), and the file they are read from when built in segments;
    /// `nil` when they were dropped or retired meanwhile. A build in segments is merged after the read, off the
    /// concurrency pool (at ten million items it writes gigabytes): the read's snapshot, which keeps SQLite from
    /// checkpointing its log, lasts only as long as the rows are read. Records alone whose merge cannot be written
    /// throw ``PostingsSegments/Failure``.
    private func buildUnlessDropped(words: Bool) async throws -> (SearchPostings.Held, PostingsSegments.Merged?)? {
        let built = try await readEveryRowUnlessDropped { [postings] db, isCancelled in try postings.build(db, words: words, isCancelled: isCancelled) }
        let made: (SearchPostings.Held, PostingsSegments.Merged?)?, spillFailure: PostingsSegments.Failure?
        switch built {
        case nil: return nil
        case .inMemory(let held, let failure): (made, spillFailure) = ((held, nil), failure)
        case .inSegments(let segments):
            made = try await unlessDropped {
                try await offThePool { [postings] isCancelled in try postings.merged(segments, words: words, isCancelled: isCancelled) }
            }
            spillFailure = segments.spillFailure
        }
        if let spillFailure {
            logger.warning("could not write a segment of the search postings beside the database, so the rest of their build held them in memory: \(spillFailure)")
        }
        return made
    }

    /// What `body` makes in one read of every row (``readEveryRow(_:)``), `nil` when it stopped because the postings were
    /// dropped or retired (``unlessDropped(_:)``).
    private func readEveryRowUnlessDropped<Made: Sendable>(
        _ body: @escaping @Sendable (Database, @escaping @Sendable () -> Bool) throws -> Made
    ) async throws -> Made? {
        try await unlessDropped { try await readEveryRow(body) }
    }

    /// What `body` makes, `nil` when it stopped because the postings were dropped (``SearchPostings/Dropped``: said,
    /// and their memory given back, ``drop(for:)``; a build that began with postings held drops those too, since the
    /// memory is what was short) or retired meanwhile (``SearchPostings/Retired``).
    private func unlessDropped<Made>(_ body: () async throws -> Made) async throws -> Made? {
        do {
            return try await body()
        } catch let error as SearchPostings.Dropped {
            try await drop(for: error)
            return nil
        } catch is SearchPostings.Retired {
            return nil
        }
    }

    /// What `body` makes in one read of the index, given whether to give up: once the task is cancelled.
    private func readEveryRow<Made: Sendable>(_ body: @escaping @Sendable (Database, @escaping @Sendable () -> Bool) throws -> Made) async throws -> Made {
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await database.read { db in try body(db, { cancelled.isSet }) }
        } onCancel: {
            cancelled.set()
        }
    }

    /// Reads the saved postings (``SavedPostingsFile``), once, when none are held and they are saved: what a restart
    /// serves at once, while the keeper catches up the commits since. A file that cannot be used is logged with the
    /// reason and the postings are built again.
    private func loadSavedSearchPostings() async throws {
        guard let saving = postingsSaving, postings.fields != .off, postings.areMissing, saving.isLoadDue else { return }
        let start = ContinuousClock.now
        let (token, lastCommit) = try await database.read { db in try (Self.savedPostingsToken(db), Self.lastCommitNumber(db)) }
        let (fields, maxWords) = (postings.fields, postings.maxWords)
        let loaded: SearchPostings.Held?
        do {
            loaded = try await offThePool { _ in
                SavedFileWriter.removeLeftovers(of: saving.file.path)
                return try saving.file.load(token: token, fields: fields, lastCommit: lastCommit, maxWords: maxWords)
            }
        } catch let error as SavedFileReader.Unusable {
            saving.markLoaded()
            logger.warning("the saved search postings in \(saving.file.path) are not used (a service builds them again; a command reads every row): \(error)")
            return
        }
        saving.markLoaded()
        guard let loaded, let install = postings.install(loaded) else { return }
        saving.record(attemptAt: nil, saved: .init(of: loaded, install: install))
        logger.info("read the saved search postings", metadata: [
            "commit": "\(loaded.commitNumber)", "rows": "\(loaded.rowsBuilt + loaded.rowsCaughtUp)", "seconds": "\((ContinuousClock.now - start).seconds)",
        ])
    }

    /// Saves the postings beside the database when the policy says it is time (``PostingsSaving/isDue(_:install:now:)``),
    /// from a copy taken in a moment (searches and catch-ups go on while it is written; what they change is copied), then
    /// writes the file's token into the database. A failure (a full disk, a read-only folder) is logged and tried
    /// again later; the file saved before stays, and serves a restart as long as its token is the database's. Postings
    /// a build in segments read from its merged file are saved by putting that file in place
    /// (``PostingsSaving/takeMerged(install:)``) instead of writing them again: what it holds, at its commit, is what
    /// was saved, and commits caught up since count toward the next save.
    /// Returns what it saved and the file's token to read it back from, `nil` when it did not save, or put in place the
    /// file the postings are read from already.
    private func saveSearchPostingsIfDue() async throws -> (PostingsSaving.Saved, token: String)? {
        let now = ContinuousClock.now
        guard let saving = postingsSaving, let (held, install) = postings.snapshot(), saving.isDue(held, install: install, now: now) else { return nil }
        let merged = saving.takeMerged(install: install)
        let (token, fields) = (merged?.token ?? SavedPostingsFile.newToken(), postings.fields)
        // Whatever fails, the next try waits the policy's interval.
        saving.record(attemptAt: now, saved: nil)
        do {
            try await offThePool { isCancelled in
                if let merged { try merged.putInPlace() } else { try saving.file.save(held, token: token, fields: fields, isCancelled: isCancelled) }
            }
            try await write { db in try db.execute(sql: "UPDATE index_commit SET savedPostings = ?", arguments: [token]) }
        } catch let error as SavedFileWriter.Failure {
            try Task.checkCancellation()
            let failures = saving.recordFailure()
            if failures % PostingsSaving.failuresBetweenWarnings == 1 {
                logger.warning("could not save the search postings (the file saved before stays; a service tries again every minute and warns again hourly): \(error)")
            } else {
                logger.debug("still cannot save the search postings (\(failures) tries in a row): \(error)")
            }
            return nil
        }
        let saved = merged.map { PostingsSaving.Saved(ofMerged: $0, install: install) } ?? PostingsSaving.Saved(of: held, install: install)
        saving.record(attemptAt: now, saved: saved)
        logger.info("saved the search postings", metadata: [
            "commit": "\(saved.commitNumber)", "path": "\(saving.file.path)", "rewritten": "\(merged == nil)",
            "seconds": "\((ContinuousClock.now - now).seconds)",
        ])
        return merged == nil ? (saved, token) : nil
    }

    /// Reads back the file just `saved` (with `token`) and serves it instead (``SearchPostings/serve(_:asInstall:)``): the members
    /// built in memory go back to the system (``csystem_release_free_memory()``, once the save's copy of them is gone
    /// too), and the kernel pages them in from the file as searches touch them, as after a restart; the commits caught
    /// up since the save are read into them first (``SearchPostings/caughtUp(_:_:)``). Off the concurrency pool: the
    /// read, the freeing of what was held, the trim. A file that cannot be read back is logged,
    /// and what is held stays.
    private func serveSavedSearchPostings(_ saved: PostingsSaving.Saved, token: String) async throws {
        guard let saving = postingsSaving else { return }
        let (postings, fields, maxWords) = (postings, postings.fields, postings.maxWords)
        do {
            let read = try await offThePool { _ in
                try saving.file.load(token: token, fields: fields, lastCommit: saved.commitNumber, maxWords: maxWords)
            }
            guard let read, let caughtUp = try await database.read({ db in try postings.caughtUp(read, db) }) else { return }
            let served = try await offThePool { _ in
                guard postings.serve(caughtUp, asInstall: saved.install) else { return false }
                csystem_release_free_memory()
                return true
            }
            if served { logger.info("serves the search postings from the file it saved", metadata: ["commit": "\(saved.commitNumber)"]) }
        } catch let error as SavedFileReader.Unusable {
            logger.warning("the search postings just saved to \(saving.file.path) cannot be read back; they stay in memory: \(error)")
        }
    }
}
