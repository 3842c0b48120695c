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
    /// The first content the run rejected, and why (``maxRejectionsKept``, each cut to ``maxRejectionBytes``): what
    /// the unit's page and `scheduler history` show beside the count.
    public var rejections: [Rejection] = []

    /// One rejected piece of content: what (a path, an identifier, a line) and why.
    public struct Rejection: Sendable, Hashable, Codable {
        public var what: String
        public var reason: String

        public init(what: String, reason: String) {
            self.what = what.cut(toUTF8Bytes: RunRecord.maxRejectionBytes)
            self.reason = reason.cut(toUTF8Bytes: RunRecord.maxRejectionBytes)
        }
    }

    /// The first rejections `log` holds, as a run keeps them.
    public static func kept(from log: RejectionLog) -> [Rejection] {
        log.examples.prefix(maxRejectionsKept).map { Rejection(what: $0.what, reason: $0.reason) }
    }

    /// Rejections a run keeps at most.
    public static let maxRejectionsKept = 10
    /// The longest `what` and `reason` kept, in UTF-8 bytes (cut at a character, with `…`).
    public static let maxRejectionBytes = 512

    /// The rejections kept, as JSON (`nil` for none): how the stores keep them.
    public var rejectionsJSON: String? {
        rejections.isEmpty ? nil : (try? JSONEncoder().encode(rejections)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The rejections `json` holds (none when it does not read).
    public static func rejections(fromJSON json: String?) -> [Rejection] {
        json.flatMap { try? JSONDecoder().decode([Rejection].self, from: Data($0.utf8)) } ?? []
    }

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
