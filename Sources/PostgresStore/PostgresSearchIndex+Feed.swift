public import Indexing
import Foundation
import Logging
import PluginAPI
import PostgresNIO

/// The index as a feed that copies on each replica follow (``SearchCopy``). Commits take their numbers under the
/// `index_commit` row lock and writes of open counts under `open_commit`'s, so a snapshot that sees number N sees
/// every change numbered N or lower: reading "after the copy's number, through the head" misses no numbered change.
/// Not numbered: the expiry sweep (a copy sweeps its own) and the reclaim of purged rows (already removed by their
/// purge).
extension PostgresSearchIndex: IndexChangeFeed {
    /// Read after the call began, and shared with the calls made at the same moment (``JoinedRead``): the copy reads
    /// it for every search.
    public func feedHead() async throws -> IndexFeedHead {
        try await headReads.value()
    }

    static func readFeedHead(_ client: PostgresClient, logger: Logger) async throws -> IndexFeedHead {
        let rows = try await client.checkedQuery(
            """
            SELECT c.identity, c.last_number, c.removals_forgotten_through, o.last_number, o.usage_deleted_before
            FROM index_commit c CROSS JOIN open_commit o
            """,
            logger: logger
        )
        for try await (identity, commit, forgotten, opens, deletedBefore) in rows.decode((String, Int64, Int64, Int64, Int).self) {
            return IndexFeedHead(
                identity: identity, commitNumber: commit, opensNumber: opens, opensDeletedBeforeDay: deletedBefore, removalsForgottenThrough: forgotten
            )
        }
        throw IndexError.damaged("the table index_commit has no row")
    }

    public func removals(after cursor: IndexFeedCursor, through head: Int64, limit: Int) async throws -> [(IndexFeedCursor, IndexRemoval)] {
        let rows = try await client.checkedQuery(
            """
            SELECT commit_number, row, kind, key FROM item_removal
            WHERE (commit_number, row) > (\(cursor.commitNumber), \(cursor.row)) AND commit_number <= \(head)
            ORDER BY commit_number, row LIMIT \(limit)
            """,
            logger: logger
        )
        var removals: [(IndexFeedCursor, IndexRemoval)] = []
        for try await (number, row, kind, key) in rows.decode((Int64, Int64, String, String?).self) {
            let removal: IndexRemoval
            switch (kind, key) {
            case ("item", let identifier?): removal = .item(identifier)
            case ("domain", let domain?): removal = .domain(domain)
            case ("all", _): removal = .all
            default: throw IndexError.damaged("the row \(row) of item_removal is a removal of '\(kind)' with no key")
            }
            removals.append((IndexFeedCursor(commitNumber: number, row: row), removal))
        }
        return removals
    }

    public func changedItems(after cursor: IndexFeedCursor, through head: Int64, limit: Int) async throws -> [(IndexFeedCursor, IndexFeedItem)] {
        // Rows a purge hid are sent too, as identifiers: a copy may hold the item under the domain it had before.
        let rows = try await client.checkedQuery(
            """
            SELECT \(unescaped: Self.itemColumns(withThumbnailData: false)), commit_number, \(unescaped: PostgresPurgedDomains.liveCondition) FROM item
            WHERE (commit_number, id) > (\(cursor.commitNumber), \(cursor.row)) AND commit_number <= \(head)
            ORDER BY commit_number, id LIMIT \(limit)
            """,
            logger: logger
        )
        var items: [(IndexFeedCursor, IndexFeedItem)] = []
        for try await row in rows {
            // The item's columns come first (``item(from:)`` reads those), then the commit number and whether it is live.
            let (id, item) = try Self.item(from: row)
            let cells = row.makeRandomAccess()
            let number = try cells[cells.count - 2].decode(Int64.self), live = try cells[cells.count - 1].decode(Bool.self)
            items.append((IndexFeedCursor(commitNumber: number, row: id), live ? .live(item, priority: id) : .hidden(identifier: item.uniqueIdentifier)))
        }
        return items
    }

    public func changedOpens(after: Int64, through head: Int64) async throws -> [OpenTally] {
        let rows = try await client.checkedQuery(
            "SELECT unique_identifier, query, day, opens FROM item_open WHERE written_in > \(after) AND written_in <= \(head)", logger: logger
        )
        var tallies: [OpenTally] = []
        for try await (identifier, query, day, opens) in rows.decode((String, String, Int, Int).self) {
            tallies.append(OpenTally(key: OpenTally.Key(day: day, identifier: identifier, query: query), opens: opens))
        }
        return tallies
    }
}
