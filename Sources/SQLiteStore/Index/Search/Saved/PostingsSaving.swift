import Synchronization

/// When the keeper of an index's postings saves them (``SavedPostingsFile``): after a build, then once enough rows
/// changed that catching them up at a restart would take a while; never more often than a minimum interval, so an
/// import does not rewrite the file at every step. A steady trickle of writes is saved seldom: each save rewrites the
/// whole file (245 MB at a million items), while the few rows a restart catches up cost little.
public struct SavedPostingsPolicy: Sendable {
    /// Two saves are at least this far apart; a failed save (a full disk) is tried again after it.
    public var minimumInterval: Duration
    /// Rows caught up since the last save that make the next one due: this share of the rows held, and at least
    /// ``minimumRows``. A restart catches up at most about that many rows (10 %: about 6 s at a million items with
    /// every field's words).
    public var changedShare: Double
    public var minimumRows: Int

    public init(minimumInterval: Duration = .seconds(60), changedShare: Double = 0.1, minimumRows: Int = 10_000) {
        self.minimumInterval = minimumInterval
        self.changedShare = changedShare
        self.minimumRows = minimumRows
    }
}

/// An index's saved postings: their file, whether the keeper read it yet, and what it last saved.
final class PostingsSaving: Sendable {
    let file: SavedPostingsFile
    let policy: SavedPostingsPolicy

    /// What a save (or the load) put in the file: the install it was, and its commit, rows caught up and the rows
    /// caught up when its candidate records were made.
    struct Saved {
        var install: Int
        var commitNumber: Int64
        var rowsCaughtUp: Int
        var recordsCaughtUpAt: Int

        init(of held: SearchPostings.Held, install: Int) {
            self.install = install
            commitNumber = held.commitNumber
            rowsCaughtUp = held.rowsCaughtUp
            recordsCaughtUpAt = held.recordsCaughtUpAt
        }

        /// What a build's merged file of install `install` holds: its build's commit, nothing caught up.
        init(ofMerged file: PostingsSegments.Merged, install: Int) {
            self.install = install
            commitNumber = file.commitNumber
            rowsCaughtUp = 0
            recordsCaughtUpAt = 0
        }
    }

    private struct State {
        var loaded = false
        var saved: Saved?
        var lastAttempt: ContinuousClock.Instant?
        var failedInARow = 0
    }

    /// A failed save is a warning the first time and then every this many tries in a row (hourly, a try a minute);
    /// the tries between are logged at debug level: a full disk is not news every minute.
    static let failuresBetweenWarnings = 60

    private let state = Mutex(State())
    /// The file a build in segments merged its postings into and serves them from, and the install they are: already
    /// of the saved form, so the next save puts it in place rather than writing them again (``takeMerged(install:)``).
    private let merged = Mutex<(file: PostingsSegments.Merged, install: Int)?>(nil)

    /// Offers `file`, the merged file install `install` is read from, to the next save.
    func offer(_ file: PostingsSegments.Merged, install: Int) {
        merged.withLock { $0 = (file, install) }
    }

    /// The file offered (``offer(_:install:)``), when the postings held are still install `install` (commits caught
    /// up since or not: the file holds the install at its build's commit). Taken either way: a file of another install
    /// is let go (and removed).
    func takeMerged(install: Int) -> PostingsSegments.Merged? {
        guard let offered = merged.withLock({ $0.take() }) else { return nil }
        return offered.install == install ? offered.file : nil
    }

    /// Lets the file offered go (and removes it): the postings it holds were dropped.
    func withdrawOffer() {
        let offered = merged.withLock { $0.take() }
        // Let go here, after the lock (`_ = merged.withLock { $0.take() }` left the file in place: a test saw it).
        withExtendedLifetime(offered) {}
    }
    /// While set, nothing is saved: a search copy being made, whose file is made again from the start if the making
    /// stops, so that a save of it could serve nothing.
    private let onHold = Atomic<Bool>(false)

    /// Holds saves back (`true`), or lets them go on (`false`).
    func hold(_ held: Bool) {
        onHold.store(held, ordering: .relaxed)
    }

    init(databasePath: String, policy: SavedPostingsPolicy) {
        file = SavedPostingsFile(databasePath: databasePath)
        self.policy = policy
    }

    /// Whether the file is still to be read: until ``markLoaded()``, at the keeper's first look.
    var isLoadDue: Bool { state.withLock { !$0.loaded } }

    /// The file was read, found missing or refused: it is not read again by this index.
    func markLoaded() {
        state.withLock { $0.loaded = true }
    }

    /// Whether `held`, install `install`, should be saved at `now`: unless saves are held back (``hold(_:)``), none of
    /// its install was saved (a build), its candidate records were made again since, or enough rows changed since the
    /// last save (``SavedPostingsPolicy``).
    func isDue(_ held: SearchPostings.Held, install: Int, now: ContinuousClock.Instant) -> Bool {
        guard !onHold.load(ordering: .relaxed) else { return false }
        return state.withLock { state in
            if let last = state.lastAttempt, last.duration(to: now) < policy.minimumInterval { return false }
            guard let saved = state.saved, saved.install == install, saved.recordsCaughtUpAt == held.recordsCaughtUpAt else { return true }
            guard saved.commitNumber != held.commitNumber else { return false }
            let changed = held.rowsCaughtUp - saved.rowsCaughtUp
            let rows = held.rowsBuilt + held.rowsCaughtUp
            return changed >= max(Int(Double(rows) * policy.changedShare), policy.minimumRows)
        }
    }

    /// Records a save tried at `now`, and what it saved when it did (or what the load read).
    func record(attemptAt now: ContinuousClock.Instant?, saved: Saved?) {
        state.withLock { state in
            if let now { state.lastAttempt = now }
            if let saved {
                state.saved = saved
                state.failedInARow = 0
            }
        }
    }

    /// How many saves failed in a row, up to now.
    var failuresInARow: Int { state.withLock { $0.failedInARow } }

    /// Records a failed save; returns how many failed in a row, this one included.
    func recordFailure() -> Int {
        state.withLock { state in
            state.failedInARow += 1
            return state.failedInARow
        }
    }
}
