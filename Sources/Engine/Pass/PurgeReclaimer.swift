import Foundation
public import Indexing
public import Logging

/// Deletes the rows of purged domains (``PendingPurge``) in short transactions, each sized to take about
/// ``targetStep`` so that no write of the index waits long behind it: what comes after an instant purge.
public struct PurgeReclaimer: Sendable {
    /// How long one reclaiming transaction should hold the write lock.
    public static let targetStep: Duration = .milliseconds(50)
    /// The rows of the first step; later steps are sized from how long the previous one took.
    public static let firstStepLimit = 500
    let index: any SearchIndex
    let logger: Logger

    public init(index: any SearchIndex, logger: Logger) {
        self.index = index
        self.logger = logger
    }

    /// One transaction of at most `limit` rows; returns the rows deleted and the limit for the next step (scaled
    /// towards ``targetStep``), or `nil` when no purge is pending.
    public func step(limit: Int) async throws -> (deleted: Int, nextLimit: Int)? {
        let started = ContinuousClock.now
        guard let deleted = try await index.reclaimPurgedItems(limit: limit) else { return nil }
        let elapsed = max((ContinuousClock.now - started).seconds, 0.001)
        let scaled = Double(limit) * min(max(Self.targetStep.seconds / elapsed, 0.5), 2)
        return (deleted, min(max(Int(scaled), 50), 20_000))
    }

    /// Reclaims every pending purge now, step by step, pausing `pause` between steps so other writers get the
    /// write lock; returns the rows deleted. A cancellation stops it between steps: what is left is reclaimed by the
    /// next one (the purged domains are already invisible).
    public func reclaimAll(pausing pause: Duration = .zero) async throws -> Int {
        var limit = Self.firstStepLimit, total = 0
        defer { if total > 0 { logger.info("reclaimed the rows of purged domains", metadata: ["rows": "\(total)"]) } }
        while true {
            try Task.checkCancellation()
            guard let (deleted, next) = try await step(limit: limit) else { break }
            total += deleted
            limit = next
            if pause > .zero { try await Task.sleep(for: pause) }
        }
        return total
    }
}
