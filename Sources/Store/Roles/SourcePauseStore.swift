/// Sources paused by operators, on every replica. One role of a ``SchedulerStore``.
public protocol SourcePauseStore: Sendable {
    /// The sources operators paused, by source name.
    func pausedSources() async throws -> [String: SourcePause]

    /// Pauses `pause.source`; a source already paused keeps its first pause. Returns whether it was running before.
    func pause(_ pause: SourcePause) async throws -> Bool

    /// Resumes `source`; returns whether it was paused.
    func resume(source: String) async throws -> Bool
}
