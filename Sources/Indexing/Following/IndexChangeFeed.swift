public import PluginAPI

/// An index whose changes a copy on another machine can follow in commit order (``SearchCopy``): the items each
/// commit wrote, what it removed, and the open counts, each numbered so that a copy knows where it stands.
///
/// A copy that holds every change through ``IndexFeedHead/commitNumber`` and opens through
/// ``IndexFeedHead/opensNumber`` answers searches as the index itself would. Expired items need no removal: every
/// search leaves them out by their date, and a copy sweeps its own.
public protocol IndexChangeFeed: Sendable {
    /// Where the index stands now: one short read.
    func feedHead() async throws -> IndexFeedHead

    /// Up to `limit` removals of the commits after `cursor`, through commit `head`, in commit order.
    func removals(after cursor: IndexFeedCursor, through head: Int64, limit: Int) async throws -> [(IndexFeedCursor, IndexRemoval)]

    /// Up to `limit` live items last written by a commit after `cursor`, through commit `head`, in commit order; an
    /// item written again later is found at its last commit only.
    func changedItems(after cursor: IndexFeedCursor, through head: Int64, limit: Int) async throws -> [(IndexFeedCursor, SearchableItem)]

    /// The open counts (whole, not increments) changed by the opens writes after number `after`, through `head`.
    func changedOpens(after: Int64, through head: Int64) async throws -> [OpenTally]

    /// Forgets the removals older than the feed keeps them (a week), and records how far
    /// (``IndexFeedHead/removalsForgottenThrough``); returns how many it forgot.
    @discardableResult
    func forgetOldRemovals() async throws -> Int
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

/// A position in a feed's commit order: the commit, and a row number inside it.
public struct IndexFeedCursor: Sendable, Hashable, Comparable {
    public var commitNumber: Int64
    public var row: Int64

    public init(commitNumber: Int64, row: Int64 = 0) {
        self.commitNumber = commitNumber
        self.row = row
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
