public import Foundation
import GRDB
public import HostSupport
public import Indexing
public import Logging
public import PluginAPI
public import Store

/// The embedded index: one SQLite database file in WAL mode, searched through the search postings (``SearchPostings``).
///
/// Every write is one transaction; a process killed mid-write leaves the file as it was before that write.
public final class SQLiteSearchIndex: SearchIndex {
    /// The database file.
    public let path: String
    /// How long an item without an expiration date lives after it is indexed.
    public let timeToLive: Duration
    /// The database, whose one migrator (``SQLiteSchema``) also made the scheduler's tables, which the store writes.
    let database: DatabasePool
    let clock: any WallClock
    let logger: Logger
    /// The file `path` named when it was opened.
    private let openedFile: DatabaseFileIdentity?
    /// Recent results, reused while the index and the clock leave them exact.
    let resultCache: SearchResultCache
    /// The dictionary items' descriptions are packed with, and `item_text` on every connection (``PackedText``).
    let textPacking: TextPacking
    /// Search results kept unless a caller chooses otherwise.
    public static let defaultSearchCacheEntries = 2048
    /// Candidate rows recent searches read, for the next searches (``CandidateRowCache``).
    let candidateRows: CandidateRowCache
    /// Bytes the candidate rows (``CandidateRowCache``) hold at most unless the operator chooses otherwise
    /// (`search.rowCacheMegabytes`), counted as the allocator gives them out: about 600,000 rows of the benchmark's
    /// items (0.9 KB each). It fills only as searches read rows: over 100k items they read about 40 MB. Over a million
    /// it fills within minutes, and each step up paid for itself (BENCHMARKS.md, 2026-11-29, 23:30: 256 MB of rows
    /// instead of 512 cost 13–14 % of never-repeated throughput, 128 MB 13–28 %). A sixteenth of the
    /// machine's (or container's) memory when that is less (``MachineMemory``): 128 MB on a 2 GB node.
    public static let defaultRowCacheBytes = Int(min(512 * 1024 * 1024, MachineMemory.available / 16))

    /// The bytes of `megabytes` (`search.rowCacheMegabytes`), or ``defaultRowCacheBytes`` when it is not set.
    public static func rowCacheBytes(megabytes: Int?) -> Int {
        megabytes.map { $0 * 1024 * 1024 } ?? defaultRowCacheBytes
    }
    /// The best fields' and names' words in memory, when whoever runs the index keeps them
    /// (``keepSearchStructures()``, the service), or read from their saved file (``readSavedSearchStructures()``, a
    /// command); searches catch them up to their commit themselves.
    package let postings: SearchPostings
    /// The file the keeper saves the postings to and reads them from at start (``SavedPostingsFile``); `nil` when they
    /// are not saved.
    let postingsSaving: PostingsSaving?
    /// Distinct words of the best fields the postings hold unless a caller chooses otherwise (see
    /// ``SearchPostings/maxWords``): about a gigabyte of memory at most.
    public static let defaultPostingsMaxWords = 2_000_000
    /// The process's own memory past which a build of the postings stops unless a caller chooses otherwise (see
    /// ``SearchPostings/maxOwnMemory``): three quarters of the machine's, or of its control group's limit
    /// (``MachineMemory``). A build's process peaked at 0.79 GB at a million items, 5.4 GB at ten million before the
    /// records (BENCHMARKS.md).
    public static let defaultPostingsMaxOwnMemory = Int(MachineMemory.available / 4 * 3)
    /// How much the rows a build of the postings reads may grow the process by before it goes on in segments written
    /// beside the database (``PostingsSegments``) unless a caller chooses otherwise: a gigabyte, or a quarter of the
    /// postings' memory bound (`maxOwnMemory`) when that is less, so that a build of ten million items takes its words
    /// and a segment instead of 5.4 GB, and one of a million (0.8 GB) stays in memory (BENCHMARKS.md).
    public static func defaultPostingsSegmentBytes(maxOwnMemory: Int) -> Int {
        min(1 << 30, maxOwnMemory / 4)
    }
    /// The bytes of mapped files the process may hold resident beyond its code and libraries before it gives back the
    /// pages of the saved postings file (``SearchPostings/giveBackMappedPagesIfDue()``) unless a caller chooses
    /// otherwise: a gigabyte, or a quarter of the postings' memory bound (`maxOwnMemory`) when that is less. A million
    /// items' file (0.4 GB) stays mapped whole on a machine of 2.2 GB or more; ten million items' (3.9 GB) is mapped
    /// again as searches read it (BENCHMARKS.md, 2026-12-01, night).
    public static func defaultPostingsMaxMappedBytes(maxOwnMemory: Int) -> Int {
        defaultPostingsSegmentBytes(maxOwnMemory: maxOwnMemory)
    }
    /// Each reading connection's page cache (SQLite's default is 2 MB): a search reads a few hundred rows, mostly the
    /// first items in priority order, which stay here instead of being copied from the file again (`pread`) by every
    /// search. Most of them come from the candidate row cache (``CandidateRowCache``) instead: 16 MB bought no
    /// throughput beside it, and took 50–90 MB more after two minutes of never-repeated searches at a million items
    /// (BENCHMARKS.md, 2026-11-29, 19:30).
    static let readerPageCacheKibibytes = 4_096
    /// The writing connection's: imports and migrations were measured with it.
    static let writerPageCacheKibibytes = 16_384

    /// Opens the database at `path`, creating it and its folder if needed, and brings its schema up to date.
    /// `searchCacheEntries` recent search results are kept (0: none; see ``SearchResultCache``); a search brings the
    /// postings (``keepSearchStructures()``) up to its commit itself; past `postingsMaxWords` distinct words, or when building them takes the process's own memory past
    /// `postingsMaxOwnMemory` bytes, they are dropped; a build whose rows grow the process by `postingsSegmentBytes`
    /// (`nil`: ``defaultPostingsSegmentBytes(maxOwnMemory:)``) goes on in segments written beside the file; once the files
    /// the process maps hold more than `postingsMaxMappedBytes` resident beyond its code and libraries (`nil`:
    /// ``defaultPostingsMaxMappedBytes(maxOwnMemory:)``), searches and the keeper give back the saved postings file's pages; `postings` says which fields' words they keep (with
    /// ``SearchPostingsFields/off`` nobody builds them); their keeper saves them beside the file as `savedPostings` says
    /// (`nil`: never), and reads them from there at start. Candidate rows recent searches read are kept up to
    /// `rowCacheBytes` (0: none; ``CandidateRowCache``).
    public init(
        path: String,
        timeToLive: Duration = StoreDefaults.timeToLive,
        clock: any WallClock = SystemWallClock(),
        searchCacheEntries: Int = SQLiteSearchIndex.defaultSearchCacheEntries,
        postingsMaxWords: Int = SQLiteSearchIndex.defaultPostingsMaxWords,
        postingsMaxOwnMemory: Int = SQLiteSearchIndex.defaultPostingsMaxOwnMemory,
        postingsSegmentBytes: Int? = nil,
        postingsMaxMappedBytes: Int? = nil,
        postings fields: SearchPostingsFields = .all,
        savedPostings: SavedPostingsPolicy? = SavedPostingsPolicy(),
        rowCacheBytes: Int = SQLiteSearchIndex.defaultRowCacheBytes,
        logger: Logger
    ) throws {
        self.path = path
        candidateRows = CandidateRowCache(maxBytes: rowCacheBytes)
        postingsSaving = savedPostings.map { PostingsSaving(databasePath: path, policy: $0) }
        postings = SearchPostings(
            maxWords: postingsMaxWords, maxOwnMemory: postingsMaxOwnMemory,
            maxMappedBytes: postingsMaxMappedBytes ?? Self.defaultPostingsMaxMappedBytes(maxOwnMemory: postingsMaxOwnMemory),
            segmentPlan: PostingsSegments.Plan(
                path: SavedPostingsFile(databasePath: path).path,
                bytes: postingsSegmentBytes ?? Self.defaultPostingsSegmentBytes(maxOwnMemory: postingsMaxOwnMemory)
            ),
            fields: fields
        )
        resultCache = SearchResultCache(maxEntries: searchCacheEntries)
        textPacking = TextPacking(clock: clock, logger: logger)
        self.timeToLive = timeToLive
        self.clock = clock
        self.logger = logger
        if let problem = ConfigPathRule.problem(with: URL(fileURLWithPath: path).path, expecting: .file) {
            throw IndexError.cannotOpen(path: path, reason: problem)
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw IndexError.cannotOpen(path: path, reason: "cannot create the folder \(folder.path)")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let dictionaries = textPacking.dictionaries
        configuration.prepareDatabase { db in
            try TextUnpacking.register(on: db, dictionaries: dictionaries)
            try db.execute(sql: "PRAGMA synchronous = FULL")
            let kibibytes = db.configuration.readonly ? Self.readerPageCacheKibibytes : Self.writerPageCacheKibibytes
            try db.execute(sql: "PRAGMA cache_size = \(-kibibytes)")
        }
        do {
            database = try SharedDatabaseFile.open(path: path, configuration: configuration)
            try database.write(SQLiteSchema.requireFullTextSearch)
            try SharedDatabaseFile.migrate(database, with: SQLiteSchema.migrator)
            openedFile = DatabaseFileIdentity.of(path: path)
        } catch let error as IndexError {
            throw error
        } catch let error as SchemaFromLaterRelease {
            throw IndexError.cannotOpen(path: path, reason: error.description)
        } catch let error as DatabaseError {
            throw IndexError.cannotOpen(path: path, reason: error.message ?? error.description)
        }
    }

    @discardableResult
    public func commit(_ batch: IndexBatch) async throws -> BatchOutcome {
        try await commit(batch, alongside: { db, _ in try Self.countOutsideChange(db) }).outcome
    }

    /// Counts a change of the index from outside the runs (``outsideChangeCount()``), inside its transaction.
    static func countOutsideChange(_ db: Database) throws {
        try db.execute(sql: "UPDATE index_commit SET outsideChanges = outsideChanges + 1")
    }

    /// Commits `batch` and runs `alongside` after it in the same transaction, with its outcome: the scheduler
    /// records a unit's success there, so the success and the index change it describes are one commit. A batch
    /// confined to domain `owner` neither writes nor deletes an identifier a live item outside it holds: those are
    /// returned. A batch whose items were `validated` already (a run's, admitted one by one) is not checked again.
    ///
    /// `priorities`, one per item of the batch's upserts in order, are the ids the items written take (a copy keeps
    /// the order of the index it follows).
    func commit<Alongside: Sendable>(
        _ batch: IndexBatch, confinedTo owner: String? = nil, validated: Bool = false, priorities: [Int64]? = nil,
        alongside: @escaping @Sendable (Database, BatchOutcome) throws -> Alongside
    ) async throws -> (outcome: BatchOutcome, taken: [HeldIdentifier], result: Alongside) {
        if !validated { try batch.validate() }
        let now = clock.now()
        let expiration = batch.defaultExpiration ?? DefaultExpiration(lifetime: timeToLive.seconds, from: now)
        let textPacking = textPacking
        return try await write { db in
            try db.execute(sql: "UPDATE index_commit SET lastNumber = lastNumber + 1")
            let number = try Self.lastCommitNumber(db)
            let rows = ItemRows(db: db, owner: owner)
            var outcome = BatchOutcome(commitNumber: number)
            var taken = HeldIdentifiers()
            for operation in batch.operations {
                switch operation {
                case .upsert(let items):
                    let packer = try textPacking.packer(db, writing: items.map(\.contentDescription))
                    let upserted = try rows.upsert(
                        items, priorities: priorities, packer: packer, expiration: expiration, now: now, commitNumber: number, taken: &taken
                    )
                    textPacking.noteWritten(by: packer)
                    try SearchTermTable.insert(upserted.words, db)
                    outcome.unchanged += upserted.unchanged
                    outcome.upserted += upserted.written
                case .deleteIdentifiers(let identifiers):
                    for identifier in identifiers {
                        outcome.deleted += try rows.delete(identifier: identifier, taken: &taken)
                    }
                case .deleteDomains(let domains):
                    for domain in domains {
                        outcome.deleted += try PurgedDomains.purge(
                            db, domain: domain, commitNumber: number, deletingThisCommitsRows: outcome.upserted > 0, now: now
                        )
                    }
                case .deleteStale(let domain, let through):
                    // Rows a purge hid are not stale items of this run: the reclaimer deletes them.
                    let range = DomainRange(domain: domain)
                    outcome.deleted += try rows.delete(
                        where: DomainRange.condition() + " AND " + ItemMarkTable.sentThroughCondition + " AND " + PurgedDomains.liveCondition(),
                        arguments: range.arguments + [through, through]
                    )
                case .deleteAll:
                    outcome.deleted += try rows.deleteAll()
                    try db.execute(sql: "DELETE FROM batch_client_state")
                    try db.execute(sql: "DELETE FROM purged_domain")
                }
            }
            if let state = batch.clientState {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO batch_client_state (batchName, state, committedAt) VALUES (?, ?, ?)",
                    arguments: [state.batchName, state.data, now.timeIntervalSince1970]
                )
            }
            let result = try alongside(db, outcome)
            return (outcome, taken.held, result)
        }
    }

    /// Throws ``IndexError/fileReplaced(path:)`` when `path` no longer names the file this index opened.
    public func verifyFile() throws(IndexError) {
        guard let openedFile, DatabaseFileIdentity.of(path: path) == openedFile else { throw .fileReplaced(path: path) }
    }

    /// Runs `updates` in one write transaction, after checking that the database file is still the one opened:
    /// every write of the index and of the scheduler's state goes through here.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try verifyFile()
        return try await database.write(updates)
    }

    public func lastCommitNumber() async throws -> Int64 {
        try await database.read(Self.lastCommitNumber)
    }

    /// The number of the last commit `db` reads.
    static func lastCommitNumber(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT lastNumber FROM index_commit")) ?? 0
    }

    /// The token of the search postings last saved beside the file (``SavedPostingsFile``), empty before any.
    static func savedPostingsToken(_ db: Database) throws -> String {
        try String.fetchOne(db, sql: "SELECT savedPostings FROM index_commit") ?? ""
    }

    public func outsideChangeCount() async throws -> Int64 {
        try await database.read { db in try Int64.fetchOne(db, sql: "SELECT outsideChanges FROM index_commit") ?? 0 }
    }

    public func itemCount(inDomain domain: String) async throws -> Int {
        let range = DomainRange(domain: domain)
        return try await database.read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM item WHERE \(DomainRange.condition()) AND \(PurgedDomains.liveCondition())", arguments: range.arguments
            ) ?? 0
        }
    }

    public func domainsHoldingItems(among domains: [String]) async throws -> Set<String> {
        guard !domains.isEmpty else { return [] }
        let list = String(decoding: try JSONEncoder().encode(Array(Set(domains))), as: UTF8.self)
        return try await database.read { db in
            // One small statement for thousands of domains (a tick asks for every unit's), each found by two seeks of
            // the item_domain index: the domain, then the domains under it.
            let item = "SELECT 1 FROM item WHERE \(PurgedDomains.liveCondition()) AND "
            let statement = try db.cachedStatement(sql: """
                SELECT asked.value FROM json_each(?) AS asked WHERE
                    EXISTS (\(item) domainIdentifier = asked.value)
                    OR EXISTS (\(item) domainIdentifier >= asked.value || '.' AND domainIdentifier < asked.value || '/')
                """)
            return Set(try String.fetchAll(statement, arguments: [list]))
        }
    }

    public func itemCount(inDomain domain: String, committedThrough number: Int64) async throws -> Int {
        let range = DomainRange(domain: domain)
        return try await database.read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM item WHERE \(DomainRange.condition()) AND \(ItemMarkTable.sentThroughCondition) AND \(PurgedDomains.liveCondition())",
                arguments: range.arguments + [number, number]
            ) ?? 0
        }
    }

    public func lastClientState(batchName: String) async throws -> Data? {
        try await database.read { db in try Self.clientState(batchName: batchName, db) }
    }

    /// ``lastClientState(batchName:)``, read on the calling thread (when a copy is opened).
    func lastClientStateReadingNow(batchName: String) throws -> Data? {
        try database.read { db in try Self.clientState(batchName: batchName, db) }
    }

    private static func clientState(batchName: String, _ db: Database) throws -> Data? {
        try Data.fetchOne(db, sql: "SELECT state FROM batch_client_state WHERE batchName = ?", arguments: [batchName])
    }

    public func itemCountsByDomain() async throws -> [String: Int] {
        try await database.read { db in
            var counts: [String: Int] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT domainIdentifier, count(*) FROM item WHERE \(PurgedDomains.liveCondition()) GROUP BY domainIdentifier"
            )
            while let row = try rows.next() {
                counts[row[0]] = row[1]
            }
            return counts
        }
    }

    @discardableResult
    public func sweepExpired() async throws -> Int {
        let now = clock.now().timeIntervalSince1970
        let swept = try await write { db in
            let swept = try ItemRows(db: db).delete(where: "expirationDate <= ? AND \(PurgedDomains.liveCondition())", arguments: [now])
            if swept > 0 { try Self.countOutsideChange(db) }
            return swept
        }
        if swept > 0 { logger.info("swept expired items", metadata: ["items": "\(swept)"]) }
        return swept
    }

    public func reclaimPurgedItems(limit: Int) async throws -> Int? {
        let now = clock.now()
        return try await write { db in try PurgedDomains.reclaim(db, limit: limit, now: now) }
    }

    public func pendingPurges() async throws -> [PendingPurge] {
        try await database.read { db in try PurgedDomains.pending(db) }
    }

    public func restorablePurges() async throws -> [String: Date] {
        try await database.read { db in try PurgedDomains.restorable(db) }
    }

    public func item(withIdentifier identifier: String) async throws -> SearchableItem? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(ItemRows.itemColumns(withThumbnailData: true)) FROM item WHERE uniqueIdentifier = ? AND \(PurgedDomains.liveCondition())",
                arguments: [identifier]
            ).map(ItemRows.item(from:))
        }
    }

    /// Bytes the database occupies on disk, write-ahead log included.
    public func storageSize() -> Int {
        [path, path + "-wal"].reduce(0) { $0 + (Self.fileSize($1) ?? 0) }
    }

    /// The bytes of the search postings saved beside the file (``SavedPostingsFile``), `nil` when there are none.
    public func savedPostingsSize() -> Int? {
        Self.fileSize(SavedPostingsFile(databasePath: path).path)
    }

    /// The size of the file at `path`, `nil` when there is none.
    private static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
    }
}
