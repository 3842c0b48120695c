public import Foundation
public import PluginAPI

/// One run of one unit, as `scheduler history` lists it.
public struct RunRecord: Sendable, Hashable, Codable {
    public var unit: String
    public var source: String
    public var domain: String
    public var startedAt: Date
    public var finishedAt: Date
    public var decision: RunDecision
    public var reason: String
    public var indexed: Int
    public var deleted: Int
    public var rejected: Int
    public var error: String?
    /// Whether the run was forced (`--force`, or the admin reindex): it accepted any size.
    public var forced: Bool
    /// The kind of run: full, incremental or resumed (a purge is recorded as full).
    public var mode: SyncMode

    public init(
        unit: String, source: String, domain: String, startedAt: Date, finishedAt: Date, decision: RunDecision, reason: String,
        indexed: Int, deleted: Int, rejected: Int, error: String?, forced: Bool, mode: SyncMode = .full
    ) {
        self.mode = mode
        self.unit = unit
        self.source = source
        self.domain = domain
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.decision = decision
        self.reason = reason
        self.indexed = indexed
        self.deleted = deleted
        self.rejected = rejected
        self.error = error
        self.forced = forced
    }
}
