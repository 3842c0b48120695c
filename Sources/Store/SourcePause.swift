public import Foundation

/// An operator's pause of a source, kept in the store so that every replica obeys it and it survives restarts:
/// every pass leaves the source's units alone (no scheduled or forced run) until it is resumed. Unlike a gate turned
/// off, a pause purges nothing; a gate turned off still purges a paused source's units.
public struct SourcePause: Sendable, Hashable, Codable {
    /// The source's name, as the config names it.
    public var source: String
    public var pausedAt: Date
    /// Who paused it, in words: `scheduler pause`, the admin API or the console, with the client when known.
    public var pausedBy: String

    public init(source: String, pausedAt: Date, pausedBy: String) {
        self.source = source
        self.pausedAt = pausedAt
        self.pausedBy = pausedBy
    }

    /// Why a unit of the source was left alone, for status, logs and `run-once`.
    public var reason: String {
        "the source is paused (since \(pausedAt.formatted(.iso8601)), by \(pausedBy)): resume it with scheduler resume --source \(source)"
    }
}
