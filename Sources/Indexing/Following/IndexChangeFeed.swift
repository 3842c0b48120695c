public import PluginAPI

/// An index whose changes a copy on another machine can follow in commit order (``SearchCopy``): the items each
/// commit wrote, what it removed, and the open counts, each numbered so that a copy knows where it stands.
///
/// A copy that holds every change through ``IndexFeedHead/commitNumber`` and opens through
/// ``IndexFeedHead/opensNumber`` holds the index's live items, in its priority order. Expired items need no removal:
/// every search leaves them out by their date, and a copy sweeps its own. Not followed: the typo vocabulary (a copy
/// makes its own from the items it holds) and the counts of expired items a sweep deleted.
public protocol IndexChangeFeed: Sendable {
    /// Where the index stands now: one short read.
    func feedHead() async throws -> IndexFeedHead

    /// Up to `limit` removals of the commits after `cursor`, through commit `head`, in commit order.
    func removals(after cursor: IndexFeedCursor, through head: Int64, limit: Int) async throws -> [(IndexFeedCursor, IndexRemoval)]

    /// Up to `limit` items last written by a commit after `cursor`, through commit `head`, in commit order (an item
    /// written again later is found at its last commit only), each with its place in priority order, or only its
    /// identifier when a purge since hid it (a copy deletes it: it may hold it under another domain).
    func changedItems(after cursor: IndexFeedCursor, through head: Int64, limit: Int) async throws -> [(IndexFeedCursor, IndexFeedItem)]

    /// The open counts (whole, not increments) changed by the opens writes after number `after`, through `head`.
    func changedOpens(after: Int64, through head: Int64) async throws -> [OpenTally]

}

/// An item as a feed sends it: its content and its place in priority order, or, hidden by a purge since, its identifier.
public enum IndexFeedItem: Sendable {
    /// `priority` is its row identifier in the feed's index (``ItemPriority``): a copy keeps it, so that both walk
    /// matches in the same order.
    case live(SearchableItem, priority: Int64)
    case hidden(identifier: String)
}

/// Where an index stands, as a copy following it reads it.
public struct IndexFeedHead: Sendable, Hashable {
    /// Names the index's database: a copy made from another one (a new database, a restore) is made again.
    public var identity: String
    /// The last commit.
    public var commitNumber: Int64
    /// The last write of open counts.
    public var opensNumber: Int64
    /// The counts of days before this one were deleted (``SearchUsage/deleteUsage(before:)``): a copy deletes its own.
    public var opensDeletedBeforeDay: Int
    /// Removals of commits up to this one are forgotten: a copy that stands before it is made again.
    public var removalsForgottenThrough: Int64

    public init(identity: String, commitNumber: Int64, opensNumber: Int64, opensDeletedBeforeDay: Int, removalsForgottenThrough: Int64) {
        self.identity = identity
        self.commitNumber = commitNumber
        self.opensNumber = opensNumber
        self.opensDeletedBeforeDay = opensDeletedBeforeDay
        self.removalsForgottenThrough = removalsForgottenThrough
    }
}

/// A position in a feed's commit order: the commit, and a row number inside it (the item's or the removal's).
/// ``after(commit:)`` is past everything of a commit.
public struct IndexFeedCursor: Sendable, Hashable, Comparable {
    public var commitNumber: Int64
    public var row: Int64

    public init(commitNumber: Int64, row: Int64) {
        self.commitNumber = commitNumber
        self.row = row
    }

    /// Past every row of commit `number`: where a copy standing at that commit reads on from.
    public static func after(commit number: Int64) -> Self {
        Self(commitNumber: number, row: .max)
    }

    public static func < (left: Self, right: Self) -> Bool {
        (left.commitNumber, left.row) < (right.commitNumber, right.row)
    }
}

/// What a commit removed, for a copy to remove too.
public enum IndexRemoval: Sendable, Hashable {
    /// The item with this identifier.
    case item(String)
    /// This domain and every domain under it (a purge).
    case domain(String)
    /// Everything (`deleteAll`).
    case all
}
