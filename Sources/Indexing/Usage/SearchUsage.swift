/// What people did with search, kept beside the index by day (UTC): the results they opened and the queries they
/// typed. Nothing about who did it is stored; the service counts clients in memory only.
public protocol SearchUsage: Sendable {
    /// Adds `tallies` to the stored open counts, in one transaction; a tally of an item not in the index (deleted
    /// since it was opened) is dropped, and so is one for a query past the item's
    /// ``OpenTally/maxQueriesPerItemAndDay`` that day. Open counts belong to an identifier: they survive reindexes of
    /// the item and are deleted with it (a delete, a stale delete, an expiry, a purge of its domain).
    func recordOpens(_ tallies: [OpenTally]) async throws

    /// The open counts stored for the item with `identifier`, by query and day.
    func openTallies(identifier: String) async throws -> [OpenTally]

    /// Adds `tallies` to the stored search counts, in one transaction.
    func recordSearches(_ tallies: [SearchTally]) async throws

    /// Deletes the open and search counts of days before `day` (days since 1970, UTC); returns how many rows.
    @discardableResult
    func deleteUsage(before day: Int) async throws -> Int

    /// What people searched for and opened from `day` on: the `limit` first of each list.
    func analytics(since day: Int, limit: Int) async throws -> SearchAnalytics
}
