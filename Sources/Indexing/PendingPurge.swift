public import Foundation

/// A domain purged but whose rows are not all reclaimed yet: its items are invisible to every read since the purge
/// committed, and ``SearchIndex/reclaimPurgedItems(limit:)`` deletes them in small transactions.
public struct PendingPurge: Sendable, Hashable, Codable {
    public var domain: String
    public var purgedAt: Date
    /// Items the purge made invisible.
    public var purgedItems: Int
    /// Of those, the rows still on disk.
    public var rowsLeft: Int

    public init(domain: String, purgedAt: Date, purgedItems: Int, rowsLeft: Int) {
        self.domain = domain
        self.purgedAt = purgedAt
        self.purgedItems = purgedItems
        self.rowsLeft = rowsLeft
    }
}
