import Foundation
import Synchronization

/// When the keeper of an index's postings saves them (``SavedPostingsFile``): after a build, then as commits land,
/// often enough that a restart has few rows to catch up, seldom enough that a steady trickle of writes does not
/// rewrite the file all the time.
public struct SavedPostingsPolicy: Sendable {
    /// Two saves are at least this far apart; a failed save (a full disk) is tried again after it.
    public var minimumInterval: Duration
    /// Rows caught up since the last save that make the next one due: this share of the rows held, and at least
    /// ``minimumRows``.
    public var changedShare: Double
    public var minimumRows: Int
    /// A save once the last one is this old, whatever changed since.
    public var maximumAge: Duration

    public init(minimumInterval: Duration = .seconds(60), changedShare: Double = 0.01, minimumRows: Int = 1_000, maximumAge: Duration = .seconds(600)) {
        self.minimumInterval = minimumInterval
        self.changedShare = changedShare
        self.minimumRows = minimumRows
        self.maximumAge = maximumAge
    }
}

/// An index's saved postings: their file, whether the keeper read it yet, and what it last saved.
final class PostingsSaving: Sendable {
    let file: SavedPostingsFile
    let policy: SavedPostingsPolicy

    /// What a save (or the load) put in the file: the install it was, and its commit and rows caught up then.
    struct Saved {
        var install: Int
        var commitNumber: Int64
        var rowsCaughtUp: Int
        var at: ContinuousClock.Instant
    }

    private struct State {
        var loadTried = false
        var saved: Saved?
        var lastAttempt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    init(databasePath: String, policy: SavedPostingsPolicy) {
        file = SavedPostingsFile(databasePath: databasePath)
        self.policy = policy
    }

    /// Whether the file is still to be read (the keeper's first look); from now on it is not.
    func takeLoad() -> Bool {
        state.withLock { state in
            defer { state.loadTried = true }
            return !state.loadTried
        }
    }

    /// Whether `held`, install `install`, should be saved at `now`: none of its install was saved (a build), or its
    /// commit was not and enough rows changed since the last save, or that save is old (``SavedPostingsPolicy``).
    func isDue(_ held: SearchPostings.Held, install: Int, now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            if let last = state.lastAttempt, last.duration(to: now) < policy.minimumInterval { return false }
            guard let saved = state.saved, saved.install == install else { return true }
            guard saved.commitNumber != held.commitNumber else { return false }
            let changed = held.rowsCaughtUp - saved.rowsCaughtUp
            let rows = held.rowsBuilt + held.rowsCaughtUp
            return changed >= max(Int(Double(rows) * policy.changedShare), policy.minimumRows) || saved.at.duration(to: now) >= policy.maximumAge
        }
    }

    /// Records a save tried at `now`, and what it saved when it did (or what the load read).
    func record(attemptAt now: ContinuousClock.Instant?, saved: Saved?) {
        state.withLock { state in
            if let now { state.lastAttempt = now }
            if let saved { state.saved = saved }
        }
    }
}
