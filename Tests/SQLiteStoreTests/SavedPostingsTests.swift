import Foundation
import FuzzSupport
@testable import Indexing
import Logging
import PluginAPI
import ProcessSupport
@testable import SQLiteStore
import Synchronization
import Testing

/// The search postings saved beside their database (``SavedPostingsFile``): a new process reads them instead of
/// building them and catches up what was written since, answering as a scan of the rows does; a file it cannot trust (cut short,
/// damaged, of another database or setting, ahead of a restored database) is refused with its reason and the postings
/// are built again; a save given up leaves the file saved before.
@Suite("Saved search postings", .timeLimit(.minutes(15)))
struct SavedPostingsTests {
    /// Saves whenever anything changed: what the tests of the file need (the service's policy is tested apart).
    static let eager = SavedPostingsPolicy(minimumInterval: .zero, changedShare: 0, minimumRows: 1)

    /// A database folder, a writer that keeps no postings (another process), and what each "process" keeping postings
    /// logged.
    struct Folder {
        let directory = try! TemporaryDirectory()
        let clock = ManualClock()
        let log = LogRecorder()
        var path: String { directory.path("index.sqlite") }
        var savedPath: String { path + ".postings" }

        /// A new index on the file, as a process started now opens it: postings kept and saved (``eager``), their builds
        /// bounded by `maxOwnMemory`.
        func process(
            fields: SearchPostingsFields = .best, path: String? = nil, maxOwnMemory: Int = SQLiteSearchIndex.defaultPostingsMaxOwnMemory,
            maxMappedBytes: Int? = nil
        ) throws -> SQLiteSearchIndex {
            try SQLiteSearchIndex(
                path: path ?? self.path, clock: clock, searchCacheEntries: 0, postingsMaxOwnMemory: maxOwnMemory,
                postingsMaxMappedBytes: maxMappedBytes, postings: fields, savedPostings: Self.eager, logger: log.logger()
            )
        }

        static let eager = SavedPostingsTests.eager

        /// An index on the file that keeps no postings: the writer of the other process, and a scan of the rows' answers.
        func plain() throws -> SQLiteSearchIndex {
            try SQLiteSearchIndex(path: path, clock: clock, searchCacheEntries: 0, postings: .off, savedPostings: nil, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        }
    }

    /// Fails unless `index` answers every query as `plain` (a scan of the rows) does, taking candidates from its records; returns how
    /// many batches its postings answered.
    static func expectSameAnswers(_ index: SQLiteSearchIndex, _ plain: SQLiteSearchIndex, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
        var random = SeededGenerator(seed: seed)
        let before = index.postings.batchesAnswered, recordedBefore = index.postings.candidatesFromRecords
        for _ in 0..<40 {
            let query = try SearchPostingsTests.randomQuery(&random)
            let kept = try await index.search(query), fullText = try await plain.search(query)
            #expect(kept.hits.map(\.uniqueIdentifier) == fullText.hits.map(\.uniqueIdentifier), "\(query.text)", sourceLocation: sourceLocation)
            #expect(kept.total == fullText.total, "\(query.text)", sourceLocation: sourceLocation)
        }
        #expect(index.postings.candidatesFromRecords > recordedBefore, "candidates come from the records", sourceLocation: sourceLocation)
        return index.postings.batchesAnswered - before
    }

    /// Writes 600 items, lets a first process build and save its postings, and returns that process.
    static func savedByAFirstProcess(_ folder: Folder, fields: SearchPostingsFields = .best) async throws -> SQLiteSearchIndex {
        var random = SeededGenerator(seed: 62)
        let first = try folder.process(fields: fields)
        try await first.commit(SearchPostingsTests.randomItems(0..<600, &random))
        try await first.refreshSearchPostings()
        #expect(FileManager.default.fileExists(atPath: folder.savedPath), "the keeper saves the postings it built")
        #expect(folder.log.contains("saved the search postings"))
        #expect(folder.log.contains("serves the search postings from the file it saved"), "what it built is read in place from the file")
        #expect(try await Self.expectSameAnswers(first, folder.plain(), seed: 62) > 10)
        return first
    }

    @Test(arguments: [SearchPostingsFields.best, .all])
    func aNewProcessReadsTheSavedPostingsCatchesUpAndAnswersAsFullText(fields: SearchPostingsFields) async throws {
        let folder = Folder()
        _ = try await Self.savedByAFirstProcess(folder, fields: fields)
        // While no process keeps postings, another writes: rewrites dropping words, deletions, new items.
        var random = SeededGenerator(seed: 63)
        let plain = try folder.plain()
        let rewritten = (0..<150).map { _ in SearchPostingsTests.randomItem("i\(Int.random(in: 0..<600, using: &random))", &random) }
        let added = (600..<700).map { SearchPostingsTests.randomItem("i\($0)", &random) }
        let deleted = (0..<40).map { _ in "i\(Int.random(in: 0..<600, using: &random))" }
        try await plain.commit(IndexBatch(operations: [.upsert(rewritten + added), .deleteIdentifiers(deleted)]))

        let restarted = try folder.process(fields: fields)
        try await restarted.refreshSearchPostings()
        #expect(folder.log.contains("read the saved search postings"))
        let written = try await plain.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE commitNumber > 1") }
        #expect(restarted.postings.rowsCaughtUpSinceBuild == written, "read, then caught up the rows written since, not built again")
        let answered = try await Self.expectSameAnswers(restarted, plain, seed: 64)
        #expect(answered > 10, "searches read the postings read from the file")
        // And the file now holds the commit caught up to, for the next start.
        let third = try folder.process(fields: fields)
        try await third.refreshSearchPostings()
        #expect(third.postings.rowsCaughtUpSinceBuild == written)
        #expect(third.postings.summary?.commitNumber == restarted.postings.summary?.commitNumber)
    }

    /// A one-shot command that searches (`scheduler search`) reads the saved postings without building or saving any;
    /// its searches catch up the commits written since themselves, answer as a scan of the rows does, and scan none.
    @Test func aCommandReadsTheSavedPostingsAndItsSearchesCatchUpWithoutScanningRows() async throws {
        let folder = Folder()
        _ = try await Self.savedByAFirstProcess(folder, fields: .all)
        var random = SeededGenerator(seed: 65)
        let plain = try folder.plain()
        try await plain.commit(IndexBatch(operations: [.upsert((600..<700).map { SearchPostingsTests.randomItem("i\($0)", &random) })]))
        let savedBefore = try FileManager.default.attributesOfItem(atPath: folder.savedPath)[.modificationDate] as? Date

        let command = try folder.process(fields: .all)
        try await command.readSavedSearchStructures()
        #expect(command.searchStructureRows == 600, "the saved file's rows, nothing built")
        #expect(try await Self.expectSameAnswers(command, plain, seed: 66) > 10)
        #expect(command.postings.rowsCaughtUpSinceBuild == 100, "the rows written since, caught up by its searches")
        #expect(command.searchesWithoutThem == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: folder.savedPath)[.modificationDate] as? Date == savedBefore, "nothing saved")
        // Without a saved file: nothing is read, and its searches scan rows, with the same answers.
        try FileManager.default.removeItem(atPath: folder.savedPath)
        let without = try folder.process(fields: .all)
        try await without.readSavedSearchStructures()
        #expect(without.searchStructureRows == 0)
        #expect(try await without.search(SearchQuery(text: "ca")).total == plain.search(SearchQuery(text: "ca")).total)
        #expect(without.searchesWithoutThem == 1)
    }

    /// Searches map the saved file's pages as they read them; once the files the process maps hold more than the
    /// bound, the keeper takes that file's pages out of the process (they stay in the page cache), and searches read
    /// them again with the same answers. Under the bound, nothing is given back.
    @Test func pastItsMappedBytesSearchesAndTheKeeperGiveTheSavedFilesPagesBackAndSearchesAnswerTheSame() async throws {
        let folder = Folder()
        _ = try await Self.savedByAFirstProcess(folder, fields: .all)
        let plain = try folder.plain()

        let unbounded = try folder.process(fields: .all, maxMappedBytes: .max)
        try await unbounded.refreshSearchPostings()
        _ = try await Self.expectSameAnswers(unbounded, plain, seed: 66)
        #expect(!unbounded.postings.giveBackMappedPagesIfDue())
        #expect(try Self.residentBytes(mapping: folder.savedPath) > 0, "searches mapped the file's pages")

        // Let go, so that what is mapped of the file from now on is the bounded process's alone.
        unbounded.retireSearchPostings()
        #expect(try Self.residentBytes(mapping: folder.savedPath) == 0)

        let bounded = try folder.process(fields: .all, maxMappedBytes: 0)
        try await bounded.refreshSearchPostings()
        // Searches look every so many searches: the last of them gives the pages back.
        let query = try SearchQuery(text: "a")
        for _ in 1..<SearchPostings.searchesAMappedPagesLook { _ = try await bounded.search(query) }
        let mappedBySearches = try Self.residentBytes(mapping: folder.savedPath)
        #expect(bounded.postings.mappedPagesGivenBack == 0)
        _ = try await bounded.search(query)
        #expect(bounded.postings.mappedPagesGivenBack == 1)
        #expect(try Self.residentBytes(mapping: folder.savedPath) < mappedBySearches, "the bounded process's pages were given back")
        #expect(try await Self.expectSameAnswers(bounded, plain, seed: 67) > 10, "searches read the pages again")

        // The keeper, as the service runs it, looks too, without searches.
        let before = bounded.postings.mappedPagesGivenBack
        try await withThrowingTaskGroup { group in
            group.addTask { try await bounded.keepSearchStructures() }
            let deadline = ContinuousClock.now + .seconds(60)
            while bounded.postings.mappedPagesGivenBack == before, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            group.cancelAll()
            try? await group.waitForAll()
        }
        #expect(bounded.postings.mappedPagesGivenBack > before)
    }

    /// The bytes this process holds resident of the mappings of the file at `path` (`/proc/self/smaps`).
    static func residentBytes(mapping path: String) throws -> Int {
        var inMapping = false, kibibytes = 0
        // Read to its end: `String(contentsOfFile:)` reads only part of a long file that says its size is 0.
        let smaps = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps")).readToEnd() ?? Data()
        for line in String(decoding: smaps, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                inMapping = fields.count >= 6 && fields[5] == path
            } else if inMapping, fields.first == "Rss:", fields.count >= 2, let value = Int(fields[1]) {
                kibibytes += value
            }
        }
        return kibibytes * 1024
    }

    /// A command's save (`scheduler index import`) asks whether it may build only when there is something to build: with
    /// a saved file to catch up, the import does not count the index's items (seconds at ten million) for nothing.
    @Test func aSaveAsksWhetherItMayBuildOnlyWhenThereIsNoSavedFileToCatchUp() async throws {
        let folder = Folder()
        let asked = Mutex(0)
        var random = SeededGenerator(seed: 65)
        try await folder.plain().commit(SearchPostingsTests.randomItems(0..<300, &random))
        let first = try folder.process()
        #expect(try await first.saveSearchStructures(mayBuild: { asked.withLock { $0 += 1 }; return false }) == .notBuilt)
        #expect(asked.withLock { $0 } == 1, "none saved: asked, and told not to build")
        #expect(try await first.saveSearchStructures(mayBuild: { true }) == .saved)

        try await folder.plain().commit(SearchPostingsTests.randomItems(300..<400, &random))
        let next = try folder.process()
        #expect(try await next.saveSearchStructures(mayBuild: { asked.withLock { $0 += 1 }; return false }) == .saved)
        #expect(asked.withLock { $0 } == 1, "the saved file caught up: never asked")
        #expect(next.postings.rowsCaughtUpSinceBuild == 100)
    }

    /// Ways a saved file cannot be trusted, each with what the log must say.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case cutShort, oneByteChanged, empty, notOurs, otherDatabase, otherSetting, aheadOfTheDatabase
        var testDescription: String { rawValue }
    }

    @Test(arguments: Damage.allCases)
    func aSavedFileThatCannotBeTrustedIsRefusedWithItsReasonAndThePostingsBuiltAgain(damage: Damage) async throws {
        let folder = Folder()
        let reason = try await Self.damage(folder, damage)
        let plain = try folder.plain()
        let restarted = try folder.process()
        try await restarted.refreshSearchPostings()
        #expect(folder.log.contains("are not used (a service builds them again"), "\(folder.log.messages)")
        #expect(folder.log.contains(reason), "\(folder.log.messages)")
        #expect(restarted.postings.summary != nil && restarted.postings.rowsCaughtUpSinceBuild == 0, "built from every row")
        #expect(try await Self.expectSameAnswers(restarted, plain, seed: 65) > 10)
        // The file is replaced by one of the postings built.
        let next = try folder.process()
        try await next.refreshSearchPostings()
        #expect(folder.log.count("read the saved search postings") == 1)
    }

    /// Damages the file a first process saved in `folder` as `damage` says; returns what the refusal must say.
    static func damage(_ folder: Folder, _ damage: Damage) async throws -> String {
        let first = try await savedByAFirstProcess(folder)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: folder.savedPath))
        switch damage {
        case .cutShort:
            bytes = bytes.prefix(bytes.count / 2)
            try bytes.write(to: URL(fileURLWithPath: folder.savedPath))
            return "cut short or damaged"
        case .oneByteChanged:
            bytes[bytes.count / 2] ^= 0x10
            try bytes.write(to: URL(fileURLWithPath: folder.savedPath))
            return "cut short or damaged"
        case .empty:
            try Data().write(to: URL(fileURLWithPath: folder.savedPath))
            return "shorter than any saved file"
        case .notOurs:
            try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: folder.savedPath))
            return "not a saved postings file"
        case .otherDatabase:
            let other = Folder()
            _ = try await savedByAFirstProcess(other)
            try FileManager.default.removeItem(atPath: folder.savedPath)
            try FileManager.default.copyItem(atPath: other.savedPath, toPath: folder.savedPath)
            return "the database does not hold its token"
        case .otherSetting:
            let all = try folder.process(fields: .all)
            try await all.refreshSearchPostings()
            return "keeps every field's words, the setting is now `best`"
        case .aheadOfTheDatabase:
            // The database is restored from a copy made before the last commit the file holds.
            let backup = folder.directory.path("backup.sqlite")
            try await first.database.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [backup]) }
            var random = SeededGenerator(seed: 66)
            try await first.commit(SearchPostingsTests.randomItems(600..<610, &random))
            try await first.refreshSearchPostings()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.path + suffix) }
            try FileManager.default.moveItem(atPath: backup, toPath: folder.path)
            // And writes more commits than the file holds, in a history of its own: the commits alone cannot tell.
            for batch in 0..<3 { try await folder.plain().commit(SearchPostingsTests.randomItems(700 + batch * 10..<710 + batch * 10, &random)) }
            return "the database does not hold its token"
        }
    }

    /// The file read back after a save is served even when commits landed since (a steady trickle of writes): caught up
    /// to the commit held first (``SearchPostings/caughtUp(_:_:)``), never behind it (searches under way would read
    /// those commits again), unless too much landed since.
    @Test func theSavedFileIsServedCaughtUpToTheCommitHeldWhenCommitsLandedSince() async throws {
        let folder = Folder()
        let first = try await Self.savedByAFirstProcess(folder)
        let (token, savedCommit) = try await first.database.read { db in
            try (SQLiteSearchIndex.savedPostingsToken(db), SQLiteSearchIndex.lastCommitNumber(db))
        }
        let saved = try #require(try SavedPostingsFile(databasePath: folder.path).load(token: token, fields: .best, lastCommit: savedCommit, maxWords: 1_000))
        let install = try #require(first.postings.snapshot()?.install)
        var random = SeededGenerator(seed: 65)
        let plain = try folder.plain()
        for round in 0..<3 {
            let items = (0..<20).map { _ in SearchPostingsTests.randomItem("i\(Int.random(in: 0..<700, using: &random))", &random) }
            try await plain.commit(IndexBatch(operations: [.upsert(items), .deleteIdentifiers(["i\(round)"])]))
            try await first.catchUpSearchPostings(ifAtMost: 1_000)
        }
        #expect(first.postings.summary?.commitNumber == savedCommit + 3)

        #expect(!first.postings.serve(saved, asInstall: install), "never behind the commit held: three commits behind")
        #expect(first.postings.summary?.commitNumber == savedCommit + 3)

        // What the keeper serves: the saved file caught up to the commit held first, so no search reads those rows again.
        let caughtUp = try #require(try await first.database.read { db in try first.postings.caughtUp(saved, db) })
        #expect(caughtUp.commitNumber == savedCommit + 3 && caughtUp.rowsCaughtUp == saved.rowsCaughtUp + 60)
        #expect(!first.postings.serve(caughtUp, asInstall: install + 1), "never in place of another install (a build since)")
        #expect(first.postings.serve(caughtUp, asInstall: install))
        let rowsCaughtUp = first.postings.rowsCaughtUpSinceBuild
        #expect(try await Self.expectSameAnswers(first, plain, seed: 67) > 10)
        #expect(first.postings.rowsCaughtUpSinceBuild == rowsCaughtUp, "no search caught anything up")
        // More rows since than a keeper takes in its steps: the postings in memory stay served.
        try await plain.commit(IndexBatch(operations: [.upsert((0..<(SearchPostings.caughtUpByKeeper * SearchPostings.stepOfOneCommit + 1)).map {
            item("bulk\($0)", title: "bulk \($0)")
        })]))
        try await first.catchUpSearchPostings(ifAtMost: .max - 1)
        #expect(try await first.database.read { db in try first.postings.caughtUp(saved, db) } == nil)
    }

    @Test func aSaveGivenUpLeavesTheFileSavedBeforeAndNoTemporaryFile() async throws {
        let folder = Folder()
        let first = try await Self.savedByAFirstProcess(folder)
        let saved = try Data(contentsOf: URL(fileURLWithPath: folder.savedPath))
        let file = SavedPostingsFile(databasePath: folder.path)
        let held = try #require(first.postings.snapshot()).held
        #expect(throws: SavedFileWriter.Failure.self) {
            try file.save(held, token: SavedPostingsFile.newToken(), fields: .best, isCancelled: { true })
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.savedPath)) == saved)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.directory.url.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func theTemporaryFileOfAProcessKilledMidSaveIsRemovedAtTheNextStartAndAWrittenOneIsKept() async throws {
        let folder = Folder()
        _ = try await Self.savedByAFirstProcess(folder)
        // One nobody holds (its writer was killed), one a writer holds locked as it writes.
        let leftover = "\(folder.savedPath).1234.tmp", written = "\(folder.savedPath).5678.tmp"
        for path in [leftover, written] { try Data(repeating: 1, count: 1000).write(to: URL(fileURLWithPath: path)) }
        let writer = try #require(FileHandle(forWritingAtPath: written))
        defer { try? writer.close() }
        #expect(flock(writer.fileDescriptor, LOCK_EX) == 0)
        try await folder.process().refreshSearchPostings()
        #expect(!FileManager.default.fileExists(atPath: leftover), "a dead writer's file is removed")
        #expect(FileManager.default.fileExists(atPath: written), "a file being written is left to its writer")
        #expect(folder.log.contains("read the saved search postings"), "the saved file is read as before")
    }

    @Test func aFolderThatCannotBeWrittenIsWarnedOnceAndSearchesGoOnWithThePostings() async throws {
        let folder = Folder()
        var random = SeededGenerator(seed: 67)
        let index = try folder.process()
        try await index.commit(SearchPostingsTests.randomItems(0..<600, &random))
        // The file's name taken by a folder: the rename over it fails, as a read-only folder's would.
        try FileManager.default.createDirectory(atPath: folder.savedPath + "/x", withIntermediateDirectories: true)
        for _ in 0..<3 { try await index.refreshSearchPostings() }
        #expect(folder.log.count("could not save the search postings") == 1, "a warning once, not at every try: \(folder.log.messages)")
        #expect(folder.log.contains("still cannot save the search postings (3 tries in a row)"))
        let answered = try await Self.expectSameAnswers(index, try folder.plain(), seed: 68)
        #expect(answered > 10, "searches read the postings that could not be saved")
    }

    /// Bytes of a valid file changed anywhere, its checksum made again to match: the reader refuses what it cannot
    /// read without trapping, and whatever it accepts still answers searches without trapping.
    @Test func changedFilesWithAMatchingChecksumNeverMakeTheReaderTrap() async throws {
        let folder = Folder()
        _ = try await Self.savedByAFirstProcess(folder)
        let original = try Data(contentsOf: URL(fileURLWithPath: folder.savedPath))
        var random = SeededGenerator(seed: 69)
        var refused = 0
        for round in 0..<200 {
            var bytes = [UInt8](original.dropLast(8))
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = round < 40 ? Int.random(in: 0..<min(200, bytes.count), using: &random) : Int.random(in: 0..<bytes.count, using: &random)
                bytes[at] = UInt8.random(in: 0...255, using: &random)
            }
            if round % 10 == 0 { bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random))) }
            let checksum = bytes.withUnsafeBytes { SavedFileChecksum.of($0) }
            try Data(bytes + withUnsafeBytes(of: checksum) { Array($0) }).write(to: URL(fileURLWithPath: folder.savedPath))
            let refusedBefore = folder.log.count("are not used")
            let index = try folder.process()
            try await index.refreshSearchPostings()
            if folder.log.count("are not used") > refusedBefore { refused += 1 }
            var queries = SeededGenerator(seed: UInt64(round))
            for _ in 0..<5 { _ = try await index.search(try SearchPostingsTests.randomQuery(&queries)) }
        }
        #expect(refused > 50, "most changes are refused: \(refused)")
    }
}

/// The policy of saves, at instants the test chooses.
@Suite("When the postings are saved")
struct SavedPostingsPolicyTests {
    @Test func aBuildIsSavedThenATenthOfTheRowsChangedAfterAMinute() {
        let saving = PostingsSaving(databasePath: "/unused", policy: SavedPostingsPolicy())
        let start = ContinuousClock.now
        var held = SearchPostings.Held(commitNumber: 10, allFields: false)
        held.rowsBuilt = 1_000_000
        saving.hold(true)
        #expect(!saving.isDue(held, install: 1, now: start), "held back (a search copy being made)")
        saving.hold(false)
        #expect(saving.isDue(held, install: 1, now: start), "a build nobody saved")
        saving.record(attemptAt: start, saved: .init(of: held, install: 1))
        #expect(!saving.isDue(held, install: 1, now: start + .seconds(86_400)), "nothing changed")
        held.recordsCaughtUpAt = 5
        #expect(saving.isDue(held, install: 1, now: start + .seconds(86_400)), "the candidate records were made again")
        held.recordsCaughtUpAt = 0
        held.commitNumber = 11
        held.rowsCaughtUp = 100_000
        #expect(!saving.isDue(held, install: 1, now: start + .seconds(86_400)), "under a tenth of the rows changed, however long ago")
        held.rowsCaughtUp = 112_000
        #expect(!saving.isDue(held, install: 1, now: start + .seconds(30)), "within a minute of the last save")
        #expect(saving.isDue(held, install: 1, now: start + .seconds(61)), "a tenth changed, a minute later")
        held.rowsCaughtUp = 1
        #expect(saving.isDue(held, install: 2, now: start + .seconds(61)), "a new build")
        saving.record(attemptAt: start + .seconds(100), saved: nil)
        #expect(!saving.isDue(held, install: 2, now: start + .seconds(130)), "a failed save is tried again a minute later")
        #expect(saving.isLoadDue)
        saving.markLoaded()
        #expect(!saving.isLoadDue, "the file is read once")
    }
}
