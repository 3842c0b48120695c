import Foundation
public import HostSupport
public import Indexing
public import Logging
import PluginAPI

/// A copy of another index (the PostgreSQL store's) in an SQLite file on this machine, kept in step with it by
/// commit number, that answers its searches at the embedded index's speed (``SearchCopy``).
///
/// ``follow(_:)``, called by the service every second or so, makes the copy when there is none (or the one there
/// follows another database, or stood still longer than the feed keeps removals) and otherwise applies what changed:
/// the removals of the new commits, then the items they wrote, then the open counts, then the position, in that
/// order, so that a copy stopped anywhere in between is made right by applying again from its position. A search
/// reads the feed's head (one short read), catches up when the copy is at most ``commitsCaughtUpBySearch`` behind,
/// and answers from the file: what a replica committed is found on every replica. Farther behind, or while the copy
/// is being made, it answers `nil` and the caller searches itself.
///
/// The file is the copy's alone: it is made again whenever it cannot be followed, never repaired.
public actor SQLiteSearchCopy: SearchCopy {
    /// Where the copy stands in its feed, stored with each application as the file's client state.
    struct Position: Codable, Hashable {
        var identity: String
        var commitNumber: Int64
        var opensNumber: Int64
        var opensDeletedBeforeDay: Int

        /// The copy holds everything `head` does.
        func reaches(_ head: IndexFeedHead) -> Bool {
            identity == head.identity && commitNumber >= head.commitNumber && opensNumber >= head.opensNumber
        }

        /// Applying the changes after this position brings the copy to `head`: same database, nothing rolled back,
        /// no removal forgotten that the copy has not applied.
        func canFollow(_ head: IndexFeedHead) -> Bool {
            identity == head.identity && commitNumber <= head.commitNumber && opensNumber <= head.opensNumber
                && head.removalsForgottenThrough <= commitNumber
        }
    }

    /// A search waits for the copy to apply this many commits at most unless told otherwise; farther behind, the feed
    /// answers it.
    public static let defaultCommitsCaughtUpBySearch: Int64 = 3
    /// Items read from the feed and written to the copy at a time: at most about 55 MB of them, however long their
    /// fields (a plugin's items may reach their limits).
    static let pageSize = 500
    /// The client state the position is kept under (JSON, its `commitNumber` the store's commit the copy reached).
    public static let positionBatchName = "search-copy-position"
    /// How often the copy sweeps its expired items (searches leave them out meanwhile).
    static let sweepInterval: TimeInterval = 60

    public nonisolated let path: String
    /// How many commits behind a search still waits for the copy to catch up.
    public let commitsCaughtUpBySearch: Int64
    /// Search results the copy keeps (``SQLiteSearchIndex/defaultSearchCacheEntries`` unless told otherwise).
    private let searchCacheEntries: Int
    /// The fields whose words the copy keeps as search postings (``SearchPostingsFields/off`` unless told otherwise):
    /// built empty when it is made, then caught up after its commits by the follower (each page it applies), its
    /// searches (a few rows) and ``keepSearchStructures()``, which also builds those of a copy opened from its file.
    private let postings: SearchPostingsFields
    private let rowCacheBytes: Int
    private let clock: any WallClock
    private let logger: Logger
    /// Where a copy being made comes from first (another replica's snapshot, ``fetchNewCopies(from:)``); the feed
    /// when it has none.
    private var source: (any SearchCopySource)?
    private var index: SQLiteSearchIndex?
    /// Searches ``search(_:following:)`` left to the store, and those the files dropped before scanned rows for: what
    /// ``searchesWithoutThem`` counts besides the open file's.
    private var searchesTheStoreAnswered = 0, searchesOfEarlierCopies = 0
    /// `nil` while no complete copy is open.
    private var position: Position?
    private var lastSweep = Date.distantPast
    private var applying = false
    private var waitingToApply: [CheckedContinuation<Void, Never>] = []
    /// The snapshot transfers are sending, while any still holds it (``snapshot()``).
    private weak var sentSnapshot: SearchCopySnapshot?
    private var snapshotTaken = ContinuousClock.now
    private var takingSnapshot = false
    private var waitingForSnapshot: [CheckedContinuation<Void, Never>] = []

    /// The copy in the file at `path`, opened when it is a complete copy; otherwise the first ``follow(_:)`` makes it.
    public init(
        path: String, commitsCaughtUpBySearch: Int64 = SQLiteSearchCopy.defaultCommitsCaughtUpBySearch,
        searchCacheEntries: Int = SQLiteSearchIndex.defaultSearchCacheEntries, postings: SearchPostingsFields = .off,
        rowCacheBytes: Int = SQLiteSearchIndex.defaultRowCacheBytes, clock: any WallClock = SystemWallClock(), logger: Logger
    ) {
        self.path = path
        self.commitsCaughtUpBySearch = commitsCaughtUpBySearch
        self.searchCacheEntries = searchCacheEntries
        self.postings = postings
        self.rowCacheBytes = rowCacheBytes
        self.clock = clock
        self.logger = logger
        Self.removeLeftSnapshots(of: path)
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            let index = try SQLiteSearchIndex(
                path: path, clock: clock, searchCacheEntries: searchCacheEntries, postings: postings, rowCacheBytes: rowCacheBytes, logger: logger
            )
            self.index = index
            position = try Self.storedPosition(of: index)
        } catch {
            logger.warning("the search copy at \(path) cannot be opened; it will be made again: \(error)")
        }
    }

    /// The index in the copy's file, opened as the copy's settings say (as the initializer opens it).
    private nonisolated func openIndex() throws -> SQLiteSearchIndex {
        try SQLiteSearchIndex(path: path, clock: clock, searchCacheEntries: searchCacheEntries, postings: postings, rowCacheBytes: rowCacheBytes, logger: logger)
    }

    /// Whether a complete copy is open (it may be behind).
    public var isMade: Bool { position != nil }

    /// Makes each new copy from `source` when it has one (another replica's), from the feed otherwise.
    public func fetchNewCopies(from source: any SearchCopySource) {
        self.source = source
    }

    /// Whether the copy is neither open nor being made from the feed at start: before the first ``follow(_:)``
    /// decides, and while it is fetched from another replica (``SearchCopySource``). Searches go to the store
    /// meanwhile, which a replica's readiness tells a load balancer. A copy made again later never warms: it is made
    /// from the feed.
    public var isWarming: Bool { position == nil && warming }
    /// Until the first follow decides where the copy comes from, and while it is fetched.
    private var warming = true
    /// Whether a copy still to be made may come from ``source``: only the first, at start. A copy made again later
    /// (damaged, or stood still too long) comes from the feed, so that a fetched copy that fails on this machine, or a
    /// peer whose copy cannot be used, is never fetched over and over.
    private var mayFetch = true

    public func search(_ query: SearchQuery, following feed: any IndexChangeFeed) async throws -> SearchResults? {
        do {
            let results = try await searchWhenHeld(query, following: feed)
            if results == nil { searchesTheStoreAnswered += 1 }
            return results
        } catch let failure as SearchCopyFailure {
            // The store answers (``PostgresSearchIndex``), as when the copy does not hold its head.
            searchesTheStoreAnswered += 1
            throw failure
        }
    }

    /// ``search(_:following:)``, `nil` when the copy does not hold the feed's head (and cannot catch up to it at once).
    private func searchWhenHeld(_ query: SearchQuery, following feed: any IndexChangeFeed) async throws -> SearchResults? {
        guard let before = position else { return nil }
        let head = try await feed.feedHead()
        // Far behind (a replica started after a long stop, a large import): the store answers while the follower
        // catches up, instead of this search waiting for it.
        guard before.reaches(head) || (before.canFollow(head) && head.commitNumber - before.commitNumber <= commitsCaughtUpBySearch) else {
            return nil
        }
        // An application under way (the follower's, or another search's) may be one this search must see, or half done:
        // the search waits for it (a few commits at most), then catches up itself if it must.
        try await oneAtATime {
            guard let position = self.position, !position.reaches(head), position.canFollow(head),
                head.commitNumber - position.commitNumber <= self.commitsCaughtUpBySearch
            else { return }
            try await self.apply(feed, through: head)
        }
        // Read after the wait: a copy made again meanwhile is another file.
        guard let index, let position, position.reaches(head) else { return nil }
        return try await locally { try await index.search(query) }
    }

    /// Brings the copy up to the feed's head: makes it when there is none or it cannot follow, else applies what
    /// changed since its position (and returns whether its commit moved). Then, outside the gate searches wait at (the
    /// rows are invisible already), reclaims a page of the domains it purged and, now and then, sweeps its expired
    /// items.
    ///
    /// A failure of the copy's own file while it applies makes the next follow make the copy again: a file that
    /// cannot take a change (damaged, or an item it refuses) is never retried forever.
    @discardableResult
    public func follow(_ feed: any IndexChangeFeed) async throws -> Bool {
        let before = position?.commitNumber
        try await oneAtATime {
            let head = try await feed.feedHead()
            if let position = self.position, position.canFollow(head) {
                do {
                    try await self.apply(feed, through: head)
                } catch let failure as SearchCopyFailure {
                    self.position = nil
                    throw failure
                }
            } else {
                try await self.make(from: feed, head: head)
            }
        }
        let applied = position?.commitNumber != before
        guard let index, position != nil else { return applied }
        let now = clock.now(), sweeping = now.timeIntervalSince(lastSweep) >= Self.sweepInterval
        try await locally {
            _ = try await index.reclaimPurgedItems(limit: Self.pageSize)
            if sweeping { try await index.sweepExpired() }
        }
        if sweeping { lastSweep = now }
        return applied
    }

    /// Makes the copy anew: the old file removed, every live item and every open count read from `feed` through
    /// `head`. The position is written last: a copy interrupted before is made again.
    private func make(from feed: any IndexChangeFeed, head: IndexFeedHead) async throws {
        let started = ContinuousClock.now
        if position != nil { logger.notice("the search copy at \(path) no longer follows the store; making it again") }
        await dropCopy()
        try await locally { try Self.removeFiles(of: self.path) }
        let source = mayFetch ? source : nil
        (mayFetch, warming) = (false, source != nil)
        defer { warming = false }
        if let source, try await fetch(from: source, feed: feed, started: started) { return }
        warming = false
        let index = try await locally { [self] in
            let index = try openIndex()
            // Not saved until the copy is made: a copy stopped before is made again from the start.
            index.holdSavingSearchPostings(true)
            // Built while the file is empty, they follow its commits from the first (rebuilt as it grows).
            if postings != .off { try await index.buildSearchPostings() }
            return index
        }
        self.index = index
        let empty = Position(identity: head.identity, commitNumber: 0, opensNumber: -1, opensDeletedBeforeDay: 0)
        let items = try await apply(feed, from: empty, through: head, to: index, removing: false)
        position = try await locally { try Self.storedPosition(of: index) }
        index.holdSavingSearchPostings(false)
        logger.notice("made the search copy at \(path)", metadata: ["items": "\(items)", "seconds": "\(ContinuousClock.now - started)"])
    }

    /// Forgets the open copy, once a snapshot under way has its own file (it reads the old database): its postings go
    /// with it, a build under way included (the keeper may still hold the old index), and so does a snapshot being sent.
    private func dropCopy() async {
        while takingSnapshot { await withCheckedContinuation { waitingForSnapshot.append($0) } }
        index?.retireSearchPostings()
        searchesOfEarlierCopies += index?.searchesWithoutThem ?? 0
        index = nil
        position = nil
        sentSnapshot = nil
    }

    /// Removes the copy's files, the write-ahead log first (left beside a new file, it would be replayed into it), and
    /// what a fetch cut short left.
    private static func removeFiles(of path: String) throws {
        let files = ["-wal", "-shm", "", SavedPostingsFile.suffix]
        for suffix in files + files.suffix(2).map({ $0 + SearchCopySnapshot.partialSuffix }) where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// Starts the copy from another replica's (`source`), then applies the commits since: `false`, no file left, when
    /// no replica had one, the fetch failed, or the copy fetched cannot follow the feed's head (another store, or older
    /// than the removals the store keeps).
    private func fetch(from source: any SearchCopySource, feed: any IndexChangeFeed, started: ContinuousClock.Instant) async throws -> Bool {
        let peer: String
        do {
            // Where the copy goes, as a new index would make it.
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard let fetched = try await source.fetchCopy(database: path, postings: path + SavedPostingsFile.suffix) else { return false }
            peer = fetched
        } catch let cancellation as CancellationError {
            throw cancellation
        } catch {
            logger.warning("could not fetch the search copy from another replica; making it from the store: \(error)")
            try await locally { try Self.removeFiles(of: self.path) }
            return false
        }
        do {
            // Read again: the copy fetched may hold commits made while it travelled.
            let head = try await feed.feedHead()
            let fetched = try await openFetched(following: head)
            try await apply(feed, through: head)
            // The store forgot removals while the copy read them: made from the feed after all.
            guard let position else { throw SearchCopyFailure(path: path, underlying: FetchedCopyUnusable(reason: "the store forgot removals it needed")) }
            logger.notice("fetched the search copy from \(peer)", metadata: [
                "commit": "\(fetched)", "caughtUpTo": "\(position.commitNumber)", "seconds": "\(ContinuousClock.now - started)",
            ])
            return true
        } catch let failure as SearchCopyFailure {
            logger.warning("the search copy fetched from \(peer) cannot be used; making it from the store: \(failure.underlying)")
            await dropCopy()
            try await locally { try Self.removeFiles(of: self.path) }
            return false
        }
    }

    /// Opens the copy just fetched as this copy, when it can follow `head`; its commit.
    private func openFetched(following head: IndexFeedHead) async throws -> Int64 {
        let (index, fetched) = try await locally { [self] in
            let index = try openIndex()
            return (index, try Self.storedPosition(of: index))
        }
        guard let fetched, fetched.canFollow(head) else {
            index.retireSearchPostings()
            throw SearchCopyFailure(path: path, underlying: FetchedCopyUnusable(reason: "it holds no position this store's head follows from"))
        }
        (self.index, position) = (index, fetched)
        return fetched.commitNumber
    }

    /// A copy fetched from another replica that this one cannot use.
    private struct FetchedCopyUnusable: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// Applies the changes from the copy's position through `head`, when it does not reach it yet. When the store forgot
    /// removals while they were read, the copy is left unmade (searches go to the store) and the next follow makes it
    /// again.
    private func apply(_ feed: any IndexChangeFeed, through head: IndexFeedHead) async throws {
        guard let index, let position, !position.reaches(head), position.canFollow(head) else { return }
        do {
            _ = try await apply(feed, from: position, through: head, to: index, removing: true)
        } catch is RemovalsForgotten {
            logger.notice("the store forgot removals the search copy at \(path) was reading; it will be made again")
            self.position = nil
            return
        }
        self.position = try await locally { try Self.storedPosition(of: index) }
    }

    /// The store forgot removals after `head` said it kept them, while the copy read them: what it read may lack some.
    private struct RemovalsForgotten: Error {}

    /// Applies to `index` the removals (unless the copy is new), then the items, then the open counts of `feed`
    /// after `position` through `head`, then records `head` as the position; returns how many items it wrote.
    private func apply(
        _ feed: any IndexChangeFeed, from position: Position, through head: IndexFeedHead, to index: SQLiteSearchIndex, removing: Bool
    ) async throws -> Int {
        var cursor = IndexFeedCursor.after(commit: position.commitNumber)
        while removing {
            let removals = try await feed.removals(after: cursor, through: head.commitNumber, limit: Self.pageSize)
            guard let last = removals.last else { break }
            // Deletions commute: one operation of each kind does what the commits did one by one.
            var identifiers: [String] = [], domains: [String] = [], everything = false
            for (_, removal) in removals {
                switch removal {
                case .item(let identifier): identifiers.append(identifier)
                case .domain(let domain): domains.append(domain)
                case .all: everything = true
                }
            }
            let operations: [IndexBatch.Operation] = (everything ? [.deleteAll] : []) + [.deleteDomains(domains), .deleteIdentifiers(identifiers)]
            _ = try await locally { try await index.commit(IndexBatch(operations: operations), validated: true, alongside: { _, _ in }) }
            cursor = last.0
        }
        // A copy about as far behind as the store keeps removals (a week) may read them as the store forgets them: a head
        // read after the last page says whether any after the position went first (forgetting only moves forward).
        if removing, try await feed.feedHead().removalsForgottenThrough > position.commitNumber { throw RemovalsForgotten() }
        cursor = IndexFeedCursor.after(commit: position.commitNumber)
        var written = 0
        while true {
            let page = try await feed.changedItems(after: cursor, through: head.commitNumber, limit: Self.pageSize)
            guard let last = page.last else { break }
            var items: [SearchableItem] = [], priorities: [Int64] = [], hidden: [String] = []
            for (_, change) in page {
                switch change {
                case .live(let item, let priority):
                    items.append(item)
                    priorities.append(priority)
                case .hidden(let identifier): hidden.append(identifier)
                }
            }
            let batch = IndexBatch(operations: [.deleteIdentifiers(hidden), .upsert(items)])
            try await locally {
                _ = try await index.commit(batch, validated: true, priorities: priorities, alongside: { _, _ in })
                // Following, the copy's postings hold each page as it lands, so that they hold the store's last commit
                // when the copy does: its first searches read them, not every row. Farther behind (a copy just made), the
                // keeper catches them up, outside the gate searches wait at.
                if removing { try await index.catchUpSearchPostings(ifAtMost: 2 * Self.pageSize) }
            }
            written += items.count
            cursor = last.0
        }
        if head.opensDeletedBeforeDay > position.opensDeletedBeforeDay {
            let day = head.opensDeletedBeforeDay
            try await locally { try await index.write { db in try db.execute(sql: "DELETE FROM item_open WHERE day < ?", arguments: [day]) } }
        }
        if head.opensNumber > position.opensNumber {
            let tallies = try await feed.changedOpens(after: position.opensNumber, through: head.opensNumber)
            try await locally { try await index.write { db in try ItemOpenTable.replace(tallies, db) } }
            index.resultCache.removeAll()
        }
        let reached = Position(
            identity: head.identity, commitNumber: head.commitNumber, opensNumber: head.opensNumber, opensDeletedBeforeDay: head.opensDeletedBeforeDay
        )
        let state = IndexBatch.ClientState(batchName: Self.positionBatchName, data: try JSONEncoder().encode(reached))
        _ = try await locally { try await index.commit(IndexBatch(clientState: state), validated: true, alongside: { _, _ in }) }
        return written
    }

    /// Runs `body`, work on the copy's own file: what it throws is a ``SearchCopyFailure``, which the store answers
    /// itself, while an error of the feed reaches the caller as it is, and a cancellation stays one.
    private func locally<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let cancellation as CancellationError {
            throw cancellation
        } catch {
            throw SearchCopyFailure(path: path, underlying: error)
        }
    }

    /// The position stored in `index`, `nil` when it holds none (a copy never completed).
    private static func storedPosition(of index: SQLiteSearchIndex) throws -> Position? {
        guard let data = try index.lastClientStateReadingNow(batchName: positionBatchName) else { return nil }
        return try JSONDecoder().decode(Position.self, from: data)
    }

    /// Runs `body` when no other application runs: searches and the follower wait for each other's, never mix them.
    private func oneAtATime(_ body: () async throws -> Void) async throws {
        while applying { await withCheckedContinuation { waitingToApply.append($0) } }
        applying = true
        defer {
            applying = false
            if !waitingToApply.isEmpty { waitingToApply.removeFirst().resume() }
        }
        try await body()
    }
}

/// A new replica starts its copy from this one's: the database as of one read transaction, and the postings file
/// opened before it (so the database holds the file's token, or the new replica builds its postings).
extension SQLiteSearchCopy: SearchCopySnapshotting {
    /// What the temporary files of snapshots add to the copy's name (removed once opened, or at the next start).
    static let snapshotInfix = ".snapshot-"

    /// How long a snapshot is given to transfers that start while another still sends it.
    static let sharedSnapshotAge: Duration = .seconds(300)

    /// One snapshot at a time, shared by every transfer that starts within ``sharedSnapshotAge`` while another still
    /// sends it: replicas joining together cost one file and one copy of the database, not one each.
    public func snapshot() async throws -> SearchCopySnapshot? {
        while takingSnapshot { await withCheckedContinuation { waitingForSnapshot.append($0) } }
        if let shared = sentSnapshot, snapshotTaken.duration(to: .now) < Self.sharedSnapshotAge { return shared }
        guard let index, position != nil else { return nil }
        takingSnapshot = true
        defer {
            takingSnapshot = false
            for waiting in waitingForSnapshot { waiting.resume() }
            waitingForSnapshot = []
        }
        let postings = try? ReadOnlyFile(path: path + SavedPostingsFile.suffix)
        let database = try await locally { try await index.snapshot(to: self.path + Self.snapshotInfix + SavedPostingsFile.newToken()) }
        let snapshot = SearchCopySnapshot(database: database, postings: postings)
        (sentSnapshot, snapshotTaken) = (snapshot, .now)
        return snapshot
    }

    /// Removes the snapshot files a crash left beside the copy at `path`.
    private static func removeLeftSnapshots(of path: String) {
        let file = URL(fileURLWithPath: path)
        let folder = file.deletingLastPathComponent().path, prefix = file.lastPathComponent + snapshotInfix
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }
}

/// A copy keeps search postings as the SQLite index does (``SQLiteSearchIndex/keepSearchStructures()``), those of
/// whichever file it holds: a copy made again starts new ones.
extension SQLiteSearchCopy: SearchStructureKeeping {
    public var searchStructureRows: Int { index?.searchStructureRows ?? 0 }
    /// Searches the store answered itself (the copy being made, or far behind), and those the copy's files scanned rows
    /// for, the files it dropped included.
    public var searchesWithoutThem: Int { searchesTheStoreAnswered + searchesOfEarlierCopies + (index?.searchesWithoutThem ?? 0) }

    public func keepSearchStructures() async throws {
        try await SQLiteSearchIndex.keepPostings { await self.index }
    }

    public var areWarming: Bool { index?.areWarming ?? false }

    public func readSavedSearchStructures() async throws {
        try await index?.readSavedSearchStructures()
    }

    public func saveSearchStructures(mayBuild: @Sendable () async throws -> Bool) async throws -> SearchStructuresSave {
        try await index?.saveSearchStructures(mayBuild: mayBuild) ?? .notBuilt
    }
}
