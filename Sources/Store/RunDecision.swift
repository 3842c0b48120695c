/// What a pass did with one unit, in `run-once --json`, the history and the metrics.
public enum RunDecision: String, Sendable, Hashable, Codable, CaseIterable {
    case reindexed
    case notDue = "not-due"
    case purged
    /// A restorable purge undone: the unit's gate turned on again within its grace; its items are back without a run.
    case restored
    case failed
    case wouldReindex = "would-reindex"
    case wouldPurge = "would-purge"
    case wouldRestore = "would-restore"
    case skipped
    /// Left alone: its source is paused (``SourcePause``).
    case paused
    /// Stopped by an operator's cancel (its plugin stopped, nothing committed after): no success, no failure counted.
    case cancelled
    /// Not started: the pass reached it later than the source's `startingDeadline` after its due instant.
    case missed
}
