public import Foundation
public import Store

/// An operator's pause or resume of a source (`scheduler pause|resume`, the admin endpoints, the console): checked
/// against the configuration, then kept in the store, where every replica's next pass reads it.
public enum OperatorPause {
    /// The result of an action: the source, and whether the action changed anything (pausing a paused source does not).
    public struct Change: Sendable, Encodable {
        public var source: String
        public var paused: Bool
        public var changed: Bool
        public var status: String
    }

    /// Pauses `source`, a source of `sources`; a paused source keeps its first pause.
    public static func pause(source: String, sources: [String], by: String, at date: Date, store: any SchedulerStore) async throws -> Change {
        try KnownSources.require(source, among: sources)
        let changed = try await store.pause(SourcePause(source: source, pausedAt: date, pausedBy: by))
        return Change(
            source: source, paused: true, changed: changed,
            status: changed ? "paused: no run of its units starts until it is resumed; nothing is purged" : "already paused"
        )
    }

    /// Resumes `source`: a source of `sources`, or a paused one the configuration no longer names.
    public static func resume(source: String, sources: [String], store: any SchedulerStore) async throws -> Change {
        let changed = try await store.resume(source: source)
        guard changed || sources.contains(source) else { throw KnownSources.unknown(source, among: sources) }
        return Change(
            source: source, paused: false, changed: changed,
            status: changed ? "resumed: its units run when they are due, from the next pass" : "not paused"
        )
    }
}
