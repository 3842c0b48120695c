public import Foundation
public import PluginAPI

/// When the items a batch writes without their own expiration date expire, and how far an unchanged item's stored
/// date may lag before it is renewed: renewing every unchanged item at every run would rewrite every row, so an
/// item that a source keeps sending expires between ¾ and all of its lifetime after the last run that sent it.
public struct DefaultExpiration: Sendable, Hashable {
    /// The date such items get.
    public var date: Date
    /// How far from ``date`` an unchanged item's stored date may be and stay as it is.
    public var renewalSlack: TimeInterval

    public init(date: Date, renewalSlack: TimeInterval) {
        self.date = date
        self.renewalSlack = renewalSlack
    }

    /// Items living `lifetime` from `now`, renewed once a quarter of it has passed.
    public init(lifetime: TimeInterval, from now: Date) {
        self.init(date: now.addingTimeInterval(lifetime), renewalSlack: lifetime / 4)
    }

    /// The date `item` is stored with.
    public func expiration(of item: SearchableItem) -> Date {
        item.expirationDate ?? date
    }

    /// What writing `item`, of content digest `digest`, changes in the row a store holds for its identifier.
    public func change(writing item: SearchableItem, digest: Int64, over stored: StoredItem) -> StoredItem.Change {
        guard stored.digest == digest else { return .content }
        // The same digest holds the same expiration date of the item's own.
        guard item.expirationDate == nil, abs(date.timeIntervalSince(stored.expiration)) > renewalSlack else { return .none }
        return .expiration(date)
    }
}

/// What a store holds of an item, to decide what writing it again changes.
public struct StoredItem: Sendable, Hashable {
    /// What writing an item changes in its stored row.
    public enum Change: Sendable, Hashable {
        /// The content differs: the row and its words are rewritten.
        case content
        /// Only the expiration date moves (an unchanged item living on).
        case expiration(Date)
        /// Nothing but the commit number, which marks the item as written by this commit (a run's sweep spares it).
        case none
    }

    /// The content digest (``ItemDigest``); `nil` for a row written before digests were kept.
    public var digest: Int64?
    public var expiration: Date

    public init(digest: Int64?, expiration: Date) {
        self.digest = digest
        self.expiration = expiration
    }
}
