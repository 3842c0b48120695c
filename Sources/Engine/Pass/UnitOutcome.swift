public import Foundation
public import PluginAPI
public import SchedulerConfig
public import Store
import Logging

/// What a pass did with one unit: the JSON of `scheduler run-once --json`.
public struct UnitOutcome: Sendable, Hashable, Codable {
    public var source: String
    public var unit: String
    public var domain: String
    /// `on` or `off`.
    public var gate: GateState
    public var variant: String?
    public var decision: RunDecision
    public var reason: String
    public var indexed: Int = 0
    /// Of the items sent, those the index held with the same content (nothing of them rewritten).
    public var unchanged: Int = 0
    public var deleted: Int = 0
    public var rejected: Int = 0
    /// The first of them, as the history keeps them (not in the JSON: `scheduler history` shows them).
    public var rejections: [RunRecord.Rejection] = []
    public var lastSuccess: Date?
    public var nextDue: Date?
    public var error: String?
    /// The kind of run (`full`, `incremental`, `resume`): the one decided, or the one run.
    public var mode: SyncMode = .full
    /// How long the unit took in this pass; not part of the JSON.
    public var duration: Duration = .zero

    /// Encodes every key, absent values as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(unit, forKey: .unit)
        try container.encode(domain, forKey: .domain)
        try container.encode(gate, forKey: .gate)
        try container.encode(variant, forKey: .variant)
        try container.encode(decision, forKey: .decision)
        try container.encode(reason, forKey: .reason)
        try container.encode(indexed, forKey: .indexed)
        try container.encode(unchanged, forKey: .unchanged)
        try container.encode(deleted, forKey: .deleted)
        try container.encode(rejected, forKey: .rejected)
        try container.encode(lastSuccess, forKey: .lastSuccess)
        try container.encode(nextDue, forKey: .nextDue)
        try container.encode(error, forKey: .error)
        try container.encode(mode, forKey: .mode)
    }
}

extension UnitOutcome {
    /// The outcome's counts and reason, for its log line.
    var logMetadata: Logger.Metadata {
        var metadata: Logger.Metadata = [
            "unit": "\(unit)", "reason": "\(reason)", "indexed": "\(indexed)",
            "unchanged": "\(unchanged)", "deleted": "\(deleted)", "rejected": "\(rejected)",
        ]
        if let error { metadata["error"] = "\(error)" }
        return metadata
    }
}

extension UnitOutcome {
    /// What a run that did not succeed (`decision`, with `error`) had done.
    mutating func record(_ progress: UnitReindex.Progress, decision: RunDecision, error: String) {
        (self.decision, self.error, mode) = (decision, error, progress.mode)
        (indexed, deleted, rejected, rejections) = (progress.indexed, progress.deleted, progress.rejected, progress.rejections)
    }
}
