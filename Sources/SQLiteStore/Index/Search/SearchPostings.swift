import CSystemCalls
import GRDB
import HostSupport
import Indexing
import Synchronization

/// The words of every item's best fields and names, and with `search.postings: all` of every field (``WordPostings``),
/// kept in this process's memory (or read in place from their saved file): a search's scans (``CandidateRanking/Scope``)
/// take their first matches from bitmaps, in time that does not grow with how many items hold a typed prefix
/// (BENCHMARKS.md), while every write stays in SQLite, which holds no other index of the words.
///
/// They are built from every row in one read (``build(_:isCancelled:)``), then brought to each later commit by reading
/// the rows it wrote (by `commitNumber`, which `item_commit` indexes), whichever process wrote them. Words are only
/// added, so at commit `n` the postings hold every item that matches at `n`, and maybe more: a deleted row no longer
/// joins `item`, and a row read more than once (rewritten) is checked on its text. A keeper's step stops at a commit
/// before the one its read sees, and misses the rows rewritten after the step: the postings then serve no search
/// before that read's commit (``Held/exactFrom``). A search uses them only at the commit its own read sees: it brings
/// them there itself, or runs again in a newer read when they moved past it. Without them (being built, dropped), it
/// reads every row and checks each one's text: right, and slow.
package final class SearchPostings: Sendable {
    /// What is held at one commit.
    struct Held: Sendable {
        /// The commit whose rows the postings hold.
        var commitNumber: Int64
        /// The first commit a search may read them at: after a keeper's step, the commit its read saw (rows written
        /// up to the step's commit but rewritten after it were not read); else their own commit.
        var exactFrom: Int64
        var bestFields = WordPostings()
        var names = WordPostings()
        /// Every searchable field's, when kept (``SearchPostings/keepsAllFields``).
        var all: WordPostings?
        /// Every row id read, and those read more than once: a candidate among the latter is checked on its text.
        var read = PostingBitmap()
        var rewritten = PostingBitmap()
        /// The candidate records of the rows (``CandidateRecords``), `nil` when given up, and ``rowsCaughtUp`` when they
        /// were made: the rows caught up since have none that holds.
        var records: CandidateRecords?
        var recordsCaughtUpAt = 0
        /// Rows read by the build, then by the catch-ups since, and those of the latter read before (rewritten): each
        /// of these may have left words its row no longer holds.
        var rowsBuilt = 0
        var rowsCaughtUp = 0
        var rowsReadAgain = 0
        /// The saved file they were read from, whose pages their members are read in place from; `nil` when built. Their
        /// records may be read from another (``CandidateRecords/mappedFile``: made again in segments).
        var mappedFile: MappedFile?

        init(commitNumber: Int64, allFields: Bool) {
            self.commitNumber = commitNumber
            exactFrom = commitNumber
            all = allFields ? WordPostings() : nil
        }

        /// The words of the widest scope kept: what ``SearchPostings/maxWords`` bounds.
        var wordCount: Int { (all ?? bestFields).wordCount }

        /// Adds a row of ``SearchPostings/rowColumns`` (or of a build's, which starts with them and the description).
        mutating func add(_ row: Row, isCatchUp: Bool) {
            let id: Int64 = row[0]
            for column in 1...4 {
                guard let text: String = row[column] else { continue }
                let isName = column <= 2
                TextFolding.forEachWord(in: text) { word in
                    bestFields.add(id, word: word)
                    if isName { names.add(id, word: word) }
                    all?.add(id, word: word)
                    return true
                }
            }
            if all != nil, row.count > 5, let description: String = row[5] {
                TextFolding.forEachWord(in: description) { word in
                    all!.add(id, word: word)
                    return true
                }
            }
            if isCatchUp {
                rowsCaughtUp += 1
                if read.contains(id) {
                    rewritten.insert(id)
                    rowsReadAgain += 1
                }
            } else {
                rowsBuilt += 1
            }
            read.insert(id)
        }

        /// Adds the `rows` written after their commit up to `target` (of ``SearchPostings/rowColumns``), read at
        /// `readAt`: they then hold `target`, and serve no read before `readAt` when that is later (a row rewritten
        /// after `target` was read at its later commit, and missed).
        mutating func catchUp(_ rows: [Row], to target: Int64, readAt: Int64) {
            for row in rows { add(row, isCatchUp: true) }
            commitNumber = target
            if target < readAt { exactFrom = max(exactFrom, readAt) }
            sortNewWords()
        }

        mutating func sortNewWords() {
            bestFields.sortNewWords()
            names.sortNewWords()
            all?.sortNewWords()
        }

        /// The saved files the postings and their records are read in place from, each once.
        var filesReadInPlace: [MappedFile] {
            [mappedFile, records?.mappedFile].compactMap { $0 }.reduce(into: []) { files, file in
                if !files.contains(where: { $0 === file }) { files.append(file) }
            }
        }

        func postings(_ scope: CandidateRanking.Scope) -> WordPostings? {
            switch scope {
            case .all: all
            case .bestFields: bestFields
            case .names: names
            }
        }
    }

    /// The columns read per row: the id, then the best fields, the names first, then the description when every field
    /// is kept (as ``Held/add(_:isCatchUp:)`` reads them).
    var rowColumns: String { "id, title, displayName, keywords, authorNames" + (keepsAllFields ? ", \(SearchColumn.contentDescription.selected)" : "") }
    /// Which fields' words are kept; with ``SearchPostingsFields/off`` nobody builds them.
    let fields: SearchPostingsFields
    /// Whether every searchable field's words are kept, so that the all-fields scan reads them too: about two and a
    /// half times the memory and build time of the best fields' (BENCHMARKS.md).
    var keepsAllFields: Bool { fields == .all }

    private let held = ReadWriteLocked<Held?>(nil)
    /// ``Held``'s row counts (`rowsBuilt` −1 while none are held), copied after every change under the write lock:
    /// what scrapes and the keeper read without taking the lock, which a long catch-up may hold.
    private let rowsBuilt = Atomic<Int>(-1), rowsCaughtUp = Atomic<Int>(0)
    /// `rowsCaughtUp` when the keeper last looked at how stale the postings are (``isStale(_:)``).
    private let rowsCaughtUpWhenLooked = Atomic<Int>(0)
    private let answered = Atomic<Int>(0)
    /// How many times the postings answered a scan's batch (instead of a scan of the rows): what tests and the benchmark check.
    package var batchesAnswered: Int { answered.load(ordering: .relaxed) }
    private let rowScans = Atomic<Int>(0)
    /// How many searches scanned rows, the postings not held (being built or dropped), not kept for a scope, or a
    /// commit too large to catch up: what the service's metrics count (`scheduler_searches_without_postings_total`).
    package var searchesScanningRows: Int { rowScans.load(ordering: .relaxed) }
    /// Counts a search that scanned rows.
    func noteRowScan() {
        rowScans.add(1, ordering: .relaxed)
    }
    private let recordsRead = Atomic<Int>(0)
    /// How many candidates scans took from the candidate records (instead of their rows): what tests check.
    package var candidatesFromRecords: Int { recordsRead.load(ordering: .relaxed) }

    /// Counts `count` candidates a scan took from the records.
    func noteCandidatesFromRecords(_ count: Int) {
        if count > 0 { recordsRead.add(count, ordering: .relaxed) }
    }
    /// New rows the keeper, or a search, reads in one step of a catch-up, under the write lock: a large import is
    /// caught up step after step as it lands (new rows cost what a build's do), never built again for its size.
    static let caughtUpByKeeper = 10_000
    /// How many steps' worth of rows one commit may hold and still be caught up whole (a batch of many small items);
    /// with more, the keeper builds the postings again.
    static let stepOfOneCommit = 5

    /// Distinct words of the best fields the postings hold at most: what sources write is not trusted, and a feed of
    /// random words must not take the service's memory (each word costs a few hundred bytes with its prefixes). Past
    /// it, the postings are dropped for the life of the process and searches scan rows, right and slow.
    let maxWords: Int
    private let gaveUpFlag = Atomic<Bool>(false)
    /// The rows held when the process's memory was last checked against ``maxOwnMemory`` (``droppedByCatchUps()``).
    private let rowsAtMemoryCheck = Atomic<Int>(0)
    /// Why a catch-up dropped the postings (past ``maxWords``), until the keeper's next look says it
    /// (``droppedByCatchUps()``): a search or a search copy's follower has no logger to say it with.
    private let unsaidDrop = Mutex<Dropped?>(nil)
    /// Whether the postings were dropped for good, for holding more than ``maxWords`` words or because their index was
    /// replaced (``retire()``): nobody builds them again, and a build under way stops.
    var gaveUp: Bool { gaveUpFlag.load(ordering: .relaxed) }

    /// Drops the postings for good: their index is no longer searched (a search copy made again in a new file), or
    /// they took too much memory; a build under way stops at its next check (``Retired``) and nothing holds their
    /// memory. What was held is freed after the lock, on the caller's thread.
    func retire() {
        gaveUpFlag.store(true, ordering: .relaxed)
        let dropped = held.write { held -> Held? in
            defer { publishCounts(held) }
            defer { held = nil }
            return held
        }
        withExtendedLifetime(dropped) {}
    }

    /// A build or a making of records stopped because the postings were retired meanwhile (by another task: their
    /// file replaced), not because its own task was cancelled: the keeper goes on.
    struct Retired: Error {}

    /// The process's own memory (``ProcessMemory/ownResidentBytes()``) past which a build of the postings or of their
    /// records stops, and rows caught up drop them: on a node too small for them, searches scan rows instead of the
    /// process being killed for its memory at every start.
    let maxOwnMemory: Int

    /// Why the postings, or their records, were dropped.
    struct Dropped: Error, CustomStringConvertible {
        let description: String

        /// The index's words hold more than ``SearchPostings/maxWords`` distinct words.
        static func tooManyWords(_ maxWords: Int) -> Dropped {
            Dropped(description: "the fields the search postings keep (search.postings) hold more than \(maxWords) distinct words: the search postings are dropped and searches scan every row, right and slow")
        }

        /// A build in segments could not write them beside the database, or read them back (``PostingsSegments``).
        static func cannotWriteSegments(_ reason: String) -> Dropped {
            Dropped(description: """
                building the search postings in segments failed: \(reason); the search postings are dropped until this \
                process starts again, and searches scan every row, right and slow; give the database's folder room \
                (a build in segments needs up to three times the saved postings' size there)
                """)
        }

        /// Making `what` took the process's own memory to `own` bytes, past `bound`.
        static func tooMuchMemory(making what: String, own: Int, bound: Int) -> Dropped {
            Dropped(description: """
                making \(what) takes this process's own memory to \(own >> 20) MB, past the \(bound >> 20) MB it may hold \
                (three quarters of the memory of the machine or of its control group): the search postings are dropped \
                until this process starts again (a search copy: until it is made again), and searches scan every row, \
                right and slow; give the service more memory
                """)
        }
    }

    /// Where a build writes its segments and how much memory one may take (``PostingsSegments``); `nil`: a build holds
    /// every row's postings in memory until it ends.
    let segmentPlan: PostingsSegments.Plan?
    private let segmentsBuilt = Atomic<Int>(0)
    /// How many segments the last read of every row wrote (a build, or candidate records made again): 0 when it held
    /// what it made in memory.
    package var segmentsOfLastBuild: Int { segmentsBuilt.load(ordering: .relaxed) }

    /// The bytes of mapped files this process may hold resident, beyond what the last give-back left, before the pages
    /// of the saved files the postings and their records are read from are taken out of it
    /// (``giveBackMappedPagesIfDue()``).
    let maxMappedBytes: Int
    private let givenBack = Atomic<Int>(0)
    /// How many times the saved file's pages were taken out of the process: what tests check.
    package var mappedPagesGivenBack: Int { givenBack.load(ordering: .relaxed) }

    init(
        maxWords: Int, maxOwnMemory: Int, maxMappedBytes: Int, segmentPlan: PostingsSegments.Plan?, fields: SearchPostingsFields
    ) {
        self.maxWords = maxWords
        self.maxOwnMemory = maxOwnMemory
        self.maxMappedBytes = maxMappedBytes
        self.segmentPlan = segmentPlan
        self.fields = fields
    }

    /// What a build made: the postings in memory (and why a segment could not be written, when one could not), or
    /// segments still to merge (``merged(_:isCancelled:)``), which a caller does after the read.
    enum Built: Sendable {
        case inMemory(Held, spillFailure: PostingsSegments.Failure?)
        case inSegments(PostingsSegments)
    }

    /// The postings of every row `db` reads, at the commit it reads, with the rows' candidate records (without
    /// `words`, the records alone: made again, ``recordsAreDue``); throws `CancellationError` when `isCancelled`,
    /// ``Retired``, or ``Dropped`` (and gives up for good) past ``maxWords`` or ``maxOwnMemory``. Once the rows read
    /// grow the process by more than ``segmentPlan`` allows, or take it past ``maxOwnMemory``, they go on in segments
    /// (``PostingsSegments``); when a segment cannot be written, in memory.
    func build(_ db: Database, words: Bool = true, isCancelled: @escaping @Sendable () -> Bool) throws -> Built {
        let what = words ? "the search postings" : "the candidate records again"
        // Without words, its scopes stay empty: a merge still writes each, as the header's setting says.
        var held = Held(commitNumber: try SQLiteSearchIndex.lastCommitNumber(db), allFields: keepsAllFields)
        // The record's columns start with those of the postings, the description included.
        let statement = try db.makeStatement(sql: "SELECT \(SearchRows.recordColumns) FROM item ORDER BY id")
        var records = CandidateRecords.Builder(maxWords: maxRecordedWords)
        var segments: PostingsSegments?
        var grownFrom = ProcessMemory.ownResidentBytes() ?? 0
        let rows = try Row.fetchCursor(statement)
        var read = 0
        while let row = try rows.next() {
            if words { held.add(row, isCatchUp: false) }
            SearchRows.record(row, statement, in: &records)
            read += 1
            if read % 4096 == 0 {
                if isCancelled() { throw CancellationError() }
                if gaveUp { throw Retired() }
                try checkWords(held)
                try spillIfDue(&held, records: &records, into: &segments, grownFrom: &grownFrom, isCancelled: isCancelled)
                try checkMemoryWhileBuilding(making: what)
            }
        }
        try checkWords(held)
        segmentsBuilt.store(segments?.count ?? 0, ordering: .relaxed)
        if let segments, segments.count > 0 {
            segments.keep(tail: held, records: records)
            return .inSegments(segments)
        }
        held.sortNewWords()
        // The records are copied out of their builder: the copy must fit too.
        try checkMemoryWhileBuilding(making: what, adding: records.byteCount)
        held.records = records.finish()
        return .inMemory(held, spillFailure: segments?.spillFailure)
    }

    /// Writes what `held` and `records` hold as a segment of `segments` (made at the first) when the process grew by
    /// a segment's bytes since `grownFrom`, or is past ``maxOwnMemory``, and gives the memory back.
    private func spillIfDue(
        _ held: inout Held, records: inout CandidateRecords.Builder, into segments: inout PostingsSegments?, grownFrom: inout Int,
        isCancelled: @escaping @Sendable () -> Bool
    ) throws {
        guard let plan = segmentPlan, let own = ProcessMemory.ownResidentBytes(), max(own - grownFrom, 0) >= plan.bytes || own > maxOwnMemory
        else { return }
        let made = segments ?? PostingsSegments(plan: plan)
        segments = made
        guard try stopping(isCancelled, { stop in try made.spill(&held, records: &records, stop: stop) }) else { return }
        _ = csystem_release_free_memory()
        grownFrom = ProcessMemory.ownResidentBytes() ?? own
    }

    /// The postings of a build in segments (with `words`, else the candidate records alone): its segments and tail
    /// merged into one file, let go, and that file read in place. When the file cannot be written or read, a build
    /// with words throws ``Dropped`` (and gives up for good), one without ``PostingsSegments/Failure``.
    func merged(_ segments: PostingsSegments, words: Bool, isCancelled: @escaping @Sendable () -> Bool) throws -> (Held, PostingsSegments.Merged) {
        do {
            return try stopping(isCancelled) { stop in
                let merged = try segments.merge(fields: fields, stop: stop)
                _ = csystem_release_free_memory()
                return (try merged.load(), merged)
            }
        } catch let failure as PostingsSegments.Failure where words {
            gaveUpFlag.store(true, ordering: .relaxed)
            throw Dropped.cannotWriteSegments(failure.description)
        }
    }

    /// Runs `body` with whether to stop writing: once `isCancelled`, or the postings are retired, which it throws
    /// as `CancellationError` or ``Retired`` instead of ``PostingsSegments/Stopped``.
    private func stopping<T>(_ isCancelled: @escaping @Sendable () -> Bool, _ body: (@escaping @Sendable () -> Bool) throws -> T) throws -> T {
        do {
            return try body { isCancelled() || self.gaveUp }
        } catch is PostingsSegments.Stopped {
            if isCancelled() { throw CancellationError() }
            throw Retired()
        }
    }

    /// Distinct words the candidate records number at most: past it (a source writing random words), none are kept.
    var maxRecordedWords: Int { 2 * maxWords }

    /// Whether the rows caught up since the records were made (new and rewritten rows, which have none that holds)
    /// outnumber them, and a floor: the keeper makes them again, so that an index grown or turned over since the
    /// postings were built is searched through records too. Records given up for too many words are not made again.
    var recordsAreDue: Bool {
        held.readIfAvailable { held in
            guard let held, let records = held.records else { return false }
            return held.rowsCaughtUp - held.recordsCaughtUpAt > max(records.count, 1_000)
        } ?? false
    }

    /// Where a making of records starts: the postings' install and the rows caught up so far, which the rows its read
    /// sees include. What ``install(_:madeFrom:)`` checks.
    var recordsStart: (install: Int, rowsCaughtUp: Int) {
        (installCount.load(ordering: .acquiring), rowsCaughtUp.load(ordering: .acquiring))
    }

    /// Serves `records`, made from a read that began at `start`, in place of those held; false when other postings
    /// were installed meanwhile (a build's, with records of its own read), which keep theirs.
    @discardableResult
    func install(_ records: CandidateRecords?, madeFrom start: (install: Int, rowsCaughtUp: Int)) -> Bool {
        held.write { held in
            guard held != nil, installCount.load(ordering: .acquiring) == start.install else { return false }
            held!.records = records
            held!.recordsCaughtUpAt = start.rowsCaughtUp
            return true
        }
    }

    private func checkWords(_ held: Held) throws {
        guard held.wordCount > maxWords else { return }
        gaveUpFlag.store(true, ordering: .relaxed)
        throw Dropped.tooManyWords(maxWords)
    }

    /// ``Dropped`` when the process's own memory, and `adding` bytes about to be allocated, are past ``maxOwnMemory``
    /// while making `what`; `nil` otherwise.
    private func pastMemoryBound(making what: String, adding: Int = 0) -> Dropped? {
        guard let own = ProcessMemory.ownResidentBytes(), own + adding > maxOwnMemory else { return nil }
        return .tooMuchMemory(making: what, own: own + adding, bound: maxOwnMemory)
    }

    /// Gives the postings up for good, and throws ``Dropped``, when making `what` (and `adding` bytes about to be
    /// allocated) takes the process past ``maxOwnMemory``.
    private func checkMemoryWhileBuilding(making what: String = "the search postings", adding: Int = 0) throws {
        guard let dropped = pastMemoryBound(making: what, adding: adding) else { return }
        gaveUpFlag.store(true, ordering: .relaxed)
        throw dropped
    }

    /// Why rows caught up into the postings since the last look (by the keeper's steps, a search, a search copy's
    /// follower) dropped them, said once: they brought more than ``maxWords`` words (dropped then), or took the
    /// process past ``maxOwnMemory`` (given up now: ``retire()`` them); `nil` when they did neither.
    func droppedByCatchUps() -> Dropped? {
        if let unsaid = unsaidDrop.withLock({ $0.take() }) { return unsaid }
        let rows = rows
        guard !gaveUp, rowsAtMemoryCheck.exchange(rows, ordering: .acquiringAndReleasing) != rows,
            let dropped = pastMemoryBound(making: "the search postings catch up")
        else { return nil }
        gaveUpFlag.store(true, ordering: .relaxed)
        return dropped
    }

    /// Serves `built` (or loaded) from now on (searches catch it up from its commit); returns the number of this
    /// install, `nil` when the postings were given up.
    @discardableResult
    func install(_ built: Held) -> Int? {
        held.write { held in
            guard !gaveUp else { return nil }
            held = built
            rowsCaughtUpWhenLooked.store(0, ordering: .releasing)
            rowsAtMemoryCheck.store(built.rowsBuilt + built.rowsCaughtUp, ordering: .releasing)
            publishCounts(held)
            return installCount.add(1, ordering: .releasing).newValue
        }
    }

    /// Serves `saved`, what install `install` was saved as and read back from its file, in its place when what is held
    /// is still that install, at the same commit (``caughtUp(_:_:)``; never an earlier one, which searches under way
    /// would have to catch up again): the same postings, their members now read in place from the mapped file instead of the
    /// process's memory. The commits caught up since the save are caught up into `saved` first (``caughtUp(_:_:)``):
    /// else the first search after the swap would read them all again while every other waits. Returns
    /// whether it did. What was held is let go after the lock, on the caller's thread: freeing every bitmap of a build
    /// takes a while.
    func serve(_ saved: Held, asInstall install: Int) -> Bool {
        let replaced = held.write { held -> Held? in
            guard !gaveUp, installCount.load(ordering: .acquiring) == install, let current = held, current.commitNumber == saved.commitNumber
            else { return nil }
            held = saved
            publishCounts(held)
            return current
        }
        return replaced != nil
    }

    /// `saved` (read back from its file) brought to the commit the postings held now hold, from the rows `db` reads; `nil`
    /// when more than a keeper takes in a few steps were written since (``stepOfOneCommit`` steps: a large import
    /// landing as the save ran), or when they would hold too many words: the postings in memory are served then.
    func caughtUp(_ saved: Held, _ db: Database) throws -> Held? {
        let readAt = try SQLiteSearchIndex.lastCommitNumber(db)
        guard let current = held.read({ $0?.commitNumber }) else { return nil }
        let target = min(current, readAt), limit = Self.caughtUpByKeeper * Self.stepOfOneCommit
        guard target > saved.commitNumber else { return saved }
        let rows = try rowsWritten(db, after: saved.commitNumber, through: target, limit: limit + 1)
        guard rows.count <= limit else { return nil }
        var caughtUp = saved
        caughtUp.catchUp(rows, to: target, readAt: readAt)
        return caughtUp.wordCount > maxWords ? nil : caughtUp
    }

    /// Takes the pages of the saved files the postings and their records are read from out of this process when the
    /// files it maps hold more than ``maxMappedBytes`` resident beyond what the last give-back left (its code, its
    /// libraries: on a small node they may take more than the bound alone) (``MappedFile/giveBackPages()``): searches
    /// touch members and records all over the file, and the kernel maps whole cached blocks at each touch, so that the
    /// process would come to map the whole file (3.9 GB at ten million items). The pages stay in the page cache;
    /// searches map those they read again. Returns whether it did.
    @discardableResult
    func giveBackMappedPagesIfDue() -> Bool {
        guard let mapped = ProcessMemory.mappedFileBytes(),
            mapped - mappedAfterGiveBack.load(ordering: .relaxed) > maxMappedBytes,
            let files = held.readIfAvailable({ $0?.filesReadInPlace ?? [] }), !files.isEmpty
        else { return false }
        for file in files { file.giveBackPages() }
        mappedAfterGiveBack.store(ProcessMemory.mappedFileBytes() ?? 0, ordering: .relaxed)
        givenBack.add(1, ordering: .relaxed)
        return true
    }
    /// The process's mapped file bytes right after the last give-back: what other mappings hold.
    private let mappedAfterGiveBack = Atomic<Int>(0)
    /// How many saved files the postings held and their records are read in place from: what tests check.
    package var filesReadInPlace: Int { held.read { $0?.filesReadInPlace.count ?? 0 } }

    /// Searches between two looks at the process's mapped pages from the search path (``noteSearch()``).
    static let searchesAMappedPagesLook = 16
    private let searchesNoted = Atomic<Int>(0)

    /// Counts a search, and every ``searchesAMappedPagesLook`` searches gives back the saved file's pages when due
    /// (``giveBackMappedPagesIfDue()``, a millisecond when it does): under load the searches map hundreds of megabytes
    /// a second, more than a look by the keeper every tenth of a second, which waits its turn behind them, can bound.
    func noteSearch() {
        if searchesNoted.add(1, ordering: .relaxed).newValue % Self.searchesAMappedPagesLook == 0 { giveBackMappedPagesIfDue() }
    }

    /// How many times postings were installed (built or loaded): a save of an earlier install is not one of these.
    private let installCount = Atomic<Int>(0)

    /// A copy of what is held, and the install it belongs to. It costs a reference per array, but the first change
    /// while it lives copies the arrays of every word's and prefix's bitmaps (a reference each), and a new word the
    /// dictionaries: milliseconds under the lock at a million items, searches waiting meanwhile.
    func snapshot() -> (held: Held, install: Int)? {
        held.read { held in held.map { ($0, installCount.load(ordering: .acquiring)) } }
    }

    /// Whether none are held: the keeper builds them.
    var areMissing: Bool { fields != .off && !gaveUp && rowsBuilt.load(ordering: .acquiring) < 0 }

    /// Whether rows caught up since the keeper last looked at how stale the postings are number half the rows they held
    /// then (and a floor): time to look again (``isStale(_:)``). Looks are as rare as the index doubles or turns over.
    var isDueALook: Bool {
        let built = rowsBuilt.load(ordering: .acquiring), caughtUp = rowsCaughtUp.load(ordering: .acquiring)
        let looked = rowsCaughtUpWhenLooked.load(ordering: .acquiring)
        return built >= 0 && caughtUp - looked > max((built + looked) / 2, 1_000)
    }

    /// Whether the postings hold more stale entries than half the live rows `db` reads (and a floor): ids of deleted
    /// rows, and words rows rewritten since no longer hold, which every scan skips or checks on the row's text. The
    /// keeper then builds them again; an index that only grew (a large import) holds none.
    func isStale(_ db: Database) throws -> Bool {
        let live = try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0
        return held.read { held in
            guard let held else { return false }
            rowsCaughtUpWhenLooked.store(held.rowsCaughtUp, ordering: .releasing)
            let stale = max(held.read.count - live, 0) + held.rowsReadAgain
            return stale > max(live / 2, 1_000)
        }
    }

    /// What ``catchUp(_:to:maxRows:waiting:stepping:)`` found.
    enum CatchUp {
        /// The postings hold the commit asked for.
        case holding
        /// They hold an earlier commit than asked for, but a later one than before: a step of the keeper's.
        case stepped
        /// More rows are new than the caller reads in one go, or (stepping) one commit wrote more than a step takes
        /// whole: the keeper builds them again.
        case tooManyRows
        /// They hold a later commit than asked for, or a step's read saw this one's rows at later commits
        /// (``Held/exactFrom``): a newer read finds them.
        case ahead
        /// There are none: nothing was done.
        case unavailable
    }

    /// Brings the postings to `commitNumber`, the commit `db` reads, when at most `maxRows` rows are newer than theirs;
    /// `stepping` (the keeper), when more are, to the last commit before the one holding the row `maxRows + 1`, or
    /// through that one commit when it holds at most ``stepOfOneCommit`` times `maxRows`. Waits while another thread
    /// changes them.
    func catchUp(_ db: Database, to commitNumber: Int64, maxRows: Int, stepping: Bool = false) throws -> CatchUp {
        while true {
            guard let (position, exactFrom) = held.read({ held in held.map { ($0.commitNumber, $0.exactFrom) } }) else { return .unavailable }
            guard position < commitNumber else { return position == commitNumber && commitNumber >= exactFrom ? .holding : .ahead }
            // A read older than the last step's: rows it sees at their earlier commits may be missing.
            guard commitNumber >= exactFrom else { return .ahead }
            var target = commitNumber
            var rows = try rowsWritten(db, after: position, through: commitNumber, limit: min(maxRows, Int.max - 1) + 1)
            if rows.count > maxRows {
                let firstBeyond = "SELECT commitNumber FROM item WHERE commitNumber > ? AND commitNumber <= ? ORDER BY commitNumber LIMIT 1 OFFSET ?"
                guard stepping, let beyond = try Int64.fetchOne(db.cachedStatement(sql: firstBeyond), arguments: [position, commitNumber, maxRows])
                else { return .tooManyRows }
                // The next commit alone holds more than a step: taken whole up to a bound, else built again.
                let limit = beyond - 1 > position ? maxRows : maxRows * Self.stepOfOneCommit
                target = beyond - 1 > position ? beyond - 1 : beyond
                rows = try rowsWritten(db, after: position, through: target, limit: limit + 1)
                guard rows.count <= limit else { return .tooManyRows }
            }
            let apply = { (held: inout Held?) -> Bool in
                // Another thread may have moved them meanwhile: then the rows read are not the ones they lack.
                guard held?.commitNumber == position else { return false }
                held!.catchUp(rows, to: target, readAt: commitNumber)
                if held!.wordCount > self.maxWords {
                    // Said by the keeper's next look, unless they were given up already: then that was said, or retired.
                    if !self.gaveUpFlag.exchange(true, ordering: .relaxed) {
                        self.unsaidDrop.withLock { $0 = .tooManyWords(self.maxWords) }
                    }
                    held = nil
                    self.publishCounts(held)
                    return true
                }
                self.publishCounts(held)
                return true
            }
            // Moved by another search meanwhile: read what they lack from where they are now.
            if held.write(apply) { return gaveUp ? .unavailable : target == commitNumber ? .holding : .stepped }
        }
    }

    /// At most `limit` rows (of ``rowColumns``) that the commits after `after` through `through` wrote.
    private func rowsWritten(_ db: Database, after: Int64, through: Int64, limit: Int) throws -> [Row] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(rowColumns) FROM item WHERE commitNumber > ? AND commitNumber <= ? LIMIT ?"),
            arguments: [after, through, limit]
        )
    }

    /// The first `limit` row ids greater than `after`, in order, whose words in `scope` satisfy `match` (or did), and
    /// those among them to check on their text; `nil` when the postings do not hold exactly `commitNumber` (or not
    /// yet for a read at it, ``Held/exactFrom``), or do not keep `scope`. Waits while another thread changes them.
    func firstMembers(
        _ scope: CandidateRanking.Scope, matching match: WordMatch, at commitNumber: Int64, after: Int64?, limit: Int
    ) -> Members? {
        held.read { held -> Members? in
            guard let held, held.commitNumber == commitNumber, commitNumber >= held.exactFrom, let postings = held.postings(scope) else { return nil }
            let ids = postings.firstMembers(matching: match, after: after, limit: limit)
            answered.add(1, ordering: .relaxed)
            return Members(ids: ids, toCheck: held.rewritten.isEmpty ? [] : Set(ids.filter(held.rewritten.contains)), records: held.records)
        }
    }

    /// Whether postings are held, but not at `commitNumber` or not for a read at it (``Held/exactFrom``): moved past it
    /// by another search, or put back to an earlier commit (a build, or a saved file, installed): a newer read brings
    /// them to its own commit.
    func holdAnotherCommit(than commitNumber: Int64) -> Bool {
        held.read { held in held.map { $0.commitNumber != commitNumber || commitNumber < $0.exactFrom } ?? false }
    }

    /// What ``firstMembers(_:matching:at:after:limit:)`` gives: the ids, those rewritten since the build (to check on
    /// their text), and the candidate records.
    struct Members {
        var ids: [Int64]
        var toCheck: Set<Int64>
        var records: CandidateRecords?
    }

    /// Copies the row counts of `held` where they are read without the lock; call under the write lock.
    private func publishCounts(_ held: Held?) {
        rowsCaughtUp.store(held?.rowsCaughtUp ?? 0, ordering: .releasing)
        rowsBuilt.store(held?.rowsBuilt ?? -1, ordering: .releasing)
    }

    /// The rows caught up since the postings were last built: what tests read to tell a catch-up from a build.
    package var rowsCaughtUpSinceBuild: Int { rowsCaughtUp.load(ordering: .acquiring) }

    /// The rows the postings hold (rewritten ones counting again), 0 while there are none: without the lock, for each
    /// scrape (a handler must never wait behind a long catch-up).
    var rows: Int {
        let built = rowsBuilt.load(ordering: .acquiring)
        return built < 0 ? 0 : built + rowsCaughtUp.load(ordering: .acquiring)
    }

    /// What the postings hold, for the log and the benchmark: the commit, rows and words, and their size in bytes with
    /// their candidate records' (which walks every bitmap).
    package var summary: (commitNumber: Int64, rows: Int, words: Int, bytes: Int)? {
        held.read { held in
            held.map { ($0.commitNumber, $0.rowsBuilt + $0.rowsCaughtUp, $0.wordCount, $0.bestFields.bytes + $0.names.bytes + ($0.all?.bytes ?? 0) + ($0.records?.byteCount ?? 0)) }
        }
    }
}

extension SearchPostings.Held {
    /// Writes the commits and row counts, then the bitmaps of the rows read and rewritten, then the words', then the
    /// candidate records when there are.
    func write(to file: SavedFileWriter) throws {
        try write(to: file, after: [], hasRecords: records != nil) { file in try records?.write(to: file) }
    }

    /// Writes what ``write(to:)`` writes, each word's members after those of `segments` (a build in segments,
    /// ``PostingsSegments``), and the records `writeRecords` writes, which it says whether there are.
    func write(
        to file: SavedFileWriter, after segments: [PostingsSegments.Segment], hasRecords: Bool, records writeRecords: (SavedFileWriter) throws -> Void
    ) throws {
        for number in [commitNumber, exactFrom, Int64(rowsBuilt), Int64(rowsCaughtUp), Int64(rowsReadAgain)] { try file.write(number) }
        for bitmap in [read, rewritten] { try bitmap.write(to: file) }
        for words in [bestFields, names] + (all.map { [$0] } ?? []) { try words.write(to: file, after: segments) }
        try file.write(UInt8(hasRecords ? 1 : 0))
        try file.write(Int64(recordsCaughtUpAt))
        try writeRecords(file)
    }

    /// Writes the members of every word and prefix, then the records `records` holds, as one segment of a build in
    /// segments (``PostingsSegments``).
    func writeSegment(to file: SavedFileWriter, records: CandidateRecords.Builder) throws {
        for words in [bestFields, names] + (all.map { [$0] } ?? []) { try words.writeMembers(to: file) }
        try records.writeRun(to: file)
    }

    /// Lets the members and records of a segment written go: the words stay.
    mutating func dropSegment(records: inout CandidateRecords.Builder) {
        bestFields.dropMembers()
        names.dropMembers()
        all?.dropMembers()
        records.dropRun()
    }

    /// Reads what ``write(to:)`` wrote, the words of every field when `allFields`.
    init(reading file: inout SavedFileReader, allFields: Bool) throws(SavedFileReader.Unusable) {
        self.init(commitNumber: try file.read(Int64.self), allFields: allFields)
        mappedFile = file.mappedFile
        exactFrom = try file.read(Int64.self)
        let counts = try [file.read(Int64.self), file.read(Int64.self), file.read(Int64.self)]
        guard counts.allSatisfy({ $0 >= 0 && $0 <= Int64(Int32.max) * 1024 }) else {
            throw SavedFileReader.Unusable(reason: "its row counts are out of range")
        }
        (rowsBuilt, rowsCaughtUp, rowsReadAgain) = (Int(counts[0]), Int(counts[1]), Int(counts[2]))
        read = try PostingBitmap(reading: &file)
        rewritten = try PostingBitmap(reading: &file)
        bestFields = try WordPostings(reading: &file)
        names = try WordPostings(reading: &file)
        if allFields { all = try WordPostings(reading: &file) }
        let hasRecords = try file.read(UInt8.self)
        guard hasRecords <= 1 else { throw SavedFileReader.Unusable(reason: "it says neither that it holds records nor that it does not") }
        let caughtUpAt = try file.read(Int64.self)
        guard caughtUpAt >= 0, caughtUpAt <= Int64(rowsCaughtUp) else { throw SavedFileReader.Unusable(reason: "its records' row count is out of range") }
        recordsCaughtUpAt = Int(caughtUpAt)
        records = hasRecords == 1 ? try CandidateRecords(reading: &file) : nil
    }
}
