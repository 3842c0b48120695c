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
    /// Until when the purge can be undone (its gate turned on again brings its items back without a run); `nil` for
    /// a purge that cannot: asked by an operator, or with no grace, or past it and being reclaimed.
    public var restorableUntil: Date?

    public init(domain: String, purgedAt: Date, purgedItems: Int, rowsLeft: Int, restorableUntil: Date? = nil) {
        self.restorableUntil = restorableUntil
        self.domain = domain
        self.purgedAt = purgedAt
        self.purgedItems = purgedItems
        self.rowsLeft = rowsLeft
    }
}
