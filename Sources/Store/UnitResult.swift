/// How a unit's last attempt ended, as the store keeps it and `scheduler status` shows it.
public enum UnitResult: String, Sendable, Hashable, Codable, CaseIterable {
    /// A run is in progress (or its process died and no pass has seen it yet: see ``UnitState/asSeenNow``).
    case running
    case succeeded
    case failed
    /// The gate turned off and the domain was purged.
    case purged
    /// The process stopped during the run, before its final commit; the next pass redoes it.
    case interrupted
    /// An operator cancelled the run (`scheduler cancel`): its plugin was stopped within seconds, its committed batches stay,
    /// and the unit waits for its next scheduled instant.
    case cancelled
    /// The run due could not start within the source's `startingDeadline`: it was skipped, and the unit waits for its
    /// next instant.
    case missed
}
