public import Foundation

/// Whether the service is healthy, for `/healthz` and `/status`: the reconcile loop alive, and its passes
/// succeeding.
public actor ServiceHealth {
    public private(set) var loopIsAlive = false
    /// When the last pass finished, if one has.
    public private(set) var lastPassFinishedAt: Date?
    /// Why the last pass failed as a whole (its database or lock unusable), until a pass succeeds.
    public private(set) var lastPassError: String?
    /// Passes failed in a row; they set the retry delay.
    public private(set) var consecutivePassFailures = 0
    /// When the service started: a unit that never succeeded counts as due from then (``ScheduledDue``).
    public nonisolated let startedAt: Date

    public init(startedAt: Date = Date()) {
        self.startedAt = startedAt
    }

    func loopStarted() { loopIsAlive = true }
    func loopStopped() { loopIsAlive = false }

    func passFinished(at date: Date) {
        lastPassFinishedAt = date
        lastPassError = nil
        consecutivePassFailures = 0
    }

    /// Records a failed pass; returns how many have failed in a row.
    func passFailed(_ error: String) -> Int {
        lastPassError = error
        consecutivePassFailures += 1
        return consecutivePassFailures
    }
}
