/// What a source does with scheduled runs missed during an outage (`missedRuns`): one catch-up run however many
/// instants passed (`once`, the default), or none (`skip`): a run that could not start within `startingDeadline` of
/// its due instant (by default one `service.tick`) is skipped, counted as missed, and the unit waits for its next
/// instant.
public enum MissedRuns: String, Sendable, Hashable, CaseIterable {
    case once
    case skip
}
