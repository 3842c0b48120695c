import Foundation
import FuzzSupport
@testable import Indexing
import Logging
import ProcessSupport
@testable import SQLiteStore
import Testing

/// A build of the search postings in segments (``PostingsSegments``), what a node too small to hold them whole does:
/// the file it merges its segments into is the file a build in memory saves, byte for byte, it answers as a scan of the rows does,
/// and it leaves no scratch file behind, however it ends.
@Suite("Search postings built in segments", .timeLimit(.minutes(15)))
struct SegmentedBuildTests {
    typealias Folder = SavedPostingsTests.Folder

    /// 10,000 items: a build that spills at every look (every 4,096 rows) writes two segments, then merges a third
    /// part held in memory.
    static let items = 10_000

    /// An index on `folder` whose builds spill at every look at their memory (`segmentBytes` 0), or
    /// never (`.max`).
    static func process(_ folder: Folder, fields: SearchPostingsFields, segmentBytes: Int) throws -> SQLiteSearchIndex {
        try SQLiteSearchIndex(
            path: folder.path, clock: folder.clock, searchCacheEntries: 0, postingsSegmentBytes: segmentBytes, postings: fields,
            savedPostings: SavedPostingsTests.eager, logger: folder.log.logger()
        )
    }

    /// The saved file's bytes after its header's token, before its checksum: what two saves of the same postings share.
    static func savedContent(_ folder: Folder) throws -> Data {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.savedPath))
        let afterToken = 8 + 4 + 1 + 4 + SavedPostingsFile.tokenBytes
        return bytes[afterToken..<(bytes.count - 8)]
    }

    /// The names in `folder` other than the database's own files and its saved postings.
    static func scratchLeft(_ folder: Folder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.directory.url.path).filter {
            !["index.sqlite", "index.sqlite-wal", "index.sqlite-shm", "index.sqlite.postings"].contains($0)
        }
    }

    /// Items `i<n>` of `ids`, each with words met first in it (its description's `w<n>`) and a keyword new every
    /// hundred items: words and prefixes numbered in every segment, not only the first.
    static func items(_ ids: Range<Int>, _ random: inout SeededGenerator) -> IndexBatch {
        IndexBatch(operations: [.upsert(ids.map { n in
            var made = SearchPostingsTests.randomItem("i\(n)", &random)
            made.contentDescription = (made.contentDescription ?? "") + " w\(n)"
            made.keywords.append("k\(n / 100)")
            return made
        })])
    }

    /// 10,000 items in two commits, with a row between them whose id starts a later chunk of ids (written as another
    /// tool would, with no searchable text), so that the items of the second commit are in other chunks than those of
    /// the first.
    static func corpus(_ folder: Folder) async throws -> SQLiteSearchIndex {
        var random = SeededGenerator(seed: 10_000)
        let writer = try folder.plain()
        try await writer.commit(Self.items(0..<(Self.items / 2), &random))
        try await writer.database.write { db in
            try db.execute(sql: """
                INSERT INTO item (id, uniqueIdentifier, domainIdentifier, contentType, keywords, expirationDate, indexedAt, commitNumber)
                VALUES (140000, 'far', 'com.test.a', 'public.item', '', 4102444800, 0, 1)
                """)
        }
        try await writer.commit(Self.items((Self.items / 2)..<Self.items, &random))
        return writer
    }

    /// The corpus in `folder`, and a process on it that built its postings in two segments and the tail: the writer
    /// (a scan of the rows' answers) and that process. Saves are held back first when `holdingSaves`.
    static func builtInSegments(_ folder: Folder, fields: SearchPostingsFields, holdingSaves: Bool = false) async throws -> (SQLiteSearchIndex, SQLiteSearchIndex) {
        let writer = try await Self.corpus(folder)
        let index = try Self.process(folder, fields: fields, segmentBytes: 0)
        index.holdSavingSearchPostings(holdingSaves)
        try await index.refreshSearchPostings()
        #expect(index.postings.segmentsOfLastBuild == 2)
        return (writer, index)
    }

    @Test(arguments: [SearchPostingsFields.best, .all])
    func segmentsMergedAreTheFileABuildInMemorySaves(fields: SearchPostingsFields) async throws {
        let folder = Folder()
        let (writer, inSegments) = try await Self.builtInSegments(folder, fields: fields)
        #expect(folder.log.contains("built the search postings"))
        #expect(try await SavedPostingsTests.expectSameAnswers(inSegments, writer, seed: 3) > 10)
        #expect(try await inSegments.search(SearchQuery(text: "w9999 k99")).hits.map(\.uniqueIdentifier) == ["i9999"])
        #expect(try Self.scratchLeft(folder).isEmpty, "the segments are removed, their merge put in place")
        #expect(folder.log.contains("saved the search postings"))
        #expect(!folder.log.contains("serves the search postings from the file it saved"), "the merged file is the saved one, not written again")
        let merged = try Self.savedContent(folder)
        let restarted = try Self.process(folder, fields: fields, segmentBytes: .max)
        try await restarted.refreshSearchPostings()
        #expect(folder.log.contains("read the saved search postings"), "the file put in place is the saved one, its token the database's")
        #expect(try await SavedPostingsTests.expectSameAnswers(restarted, writer, seed: 6) > 10)

        try FileManager.default.removeItem(atPath: folder.savedPath)
        let inMemory = try Self.process(folder, fields: fields, segmentBytes: .max)
        try await inMemory.refreshSearchPostings()
        #expect(inMemory.postings.segmentsOfLastBuild == 0)
        #expect(try Self.savedContent(folder) == merged, "the same words, members and records, in the same order")
    }

    /// Candidate records given up in the second segment (more words than they number: 2 × 3,000 here, of every field,
    /// where the postings count the best fields'): none are kept, as in memory.
    @Test func recordsGivenUpInAMiddleSegmentAreGivenUpAsInMemory() async throws {
        let folder = Folder()
        _ = try await Self.corpus(folder)
        var saved: [Data] = []
        for segmentBytes in [0, Int.max] {
            try? FileManager.default.removeItem(atPath: folder.savedPath)
            let index = try SQLiteSearchIndex(
                path: folder.path, clock: folder.clock, searchCacheEntries: 0, postingsMaxWords: 3_000, postingsSegmentBytes: segmentBytes,
                postings: .best, savedPostings: SavedPostingsTests.eager, logger: folder.log.logger()
            )
            try await index.refreshSearchPostings()
            #expect(index.postings.segmentsOfLastBuild == (segmentBytes == 0 ? 2 : 0))
            #expect(index.postings.snapshot()?.held.records == nil, "records given up")
            #expect(try await index.search(SearchQuery(text: "w9999")).hits.map(\.uniqueIdentifier) == ["i9999"])
            saved.append(try Self.savedContent(folder))
        }
        #expect(saved[0] == saved[1])
    }

    /// Rows written after the build are caught up into postings read in place from the merged file, as into those of
    /// a restart: the members they add are copied out of the file first.
    @Test func postingsBuiltInSegmentsCatchUpLaterCommits() async throws {
        let folder = Folder()
        let (writer, index) = try await Self.builtInSegments(folder, fields: .all)
        var random = SeededGenerator(seed: 4_097)
        try await writer.commit(Self.items(5_000..<5_300, &random))
        try await writer.commit(IndexBatch(operations: [.deleteIdentifiers((0..<200).map { "i\($0)" })]))
        try await index.refreshSearchPostings()
        #expect(index.postings.rowsCaughtUpSinceBuild == 300)
        #expect(try await SavedPostingsTests.expectSameAnswers(index, writer, seed: 4) > 10)
    }

    /// Candidate records made again once the rows caught up outnumber them, in segments: the records made in memory,
    /// byte for byte, and searched as a scan of the rows answers.
    @Test(arguments: [SearchPostingsFields.best, .all])
    func recordsMadeAgainInSegmentsAreThoseMadeInMemory(fields: SearchPostingsFields) async throws {
        let folder = Folder()
        // Saves held: the records made again are read from their own merged file.
        let (writer, index) = try await Self.builtInSegments(folder, fields: fields, holdingSaves: true)
        #expect(index.postings.filesReadInPlace == 1, "the postings and records from the build's merged file")
        var random = SeededGenerator(seed: 12)
        for start in stride(from: Self.items, to: Self.items + 10_500, by: 3_500) { try await writer.commit(Self.items(start..<(start + 3_500), &random)) }
        try await index.refreshSearchPostings()
        #expect(folder.log.contains("made the candidate records again"))
        #expect(index.postings.filesReadInPlace == 2, "the records from another file, whose pages are given back too")
        #expect(index.postings.segmentsOfLastBuild == 5, "20,501 rows, a segment every 4,096")
        let remade = try #require(index.postings.snapshot()?.held.records)
        #expect(remade.count == Self.items + 1 + 10_500)

        let inMemory = Self.postings(PostingsSegments.Plan(path: folder.savedPath, bytes: .max), fields: fields)
        guard case .inMemory(let held, nil) = try await writer.database.read({ db in try inMemory.build(db, words: false, isCancelled: { false }) }) else {
            Issue.record("not made in memory")
            return
        }
        #expect(held.bestFields.wordCount == 0 && (held.all?.wordCount ?? 0) == 0, "the records alone")
        #expect(!index.postings.gaveUp)
        let written = try [remade, #require(held.records)].map { records in
            let path = folder.directory.path("records-\(UUID())")
            let file = try SavedFileWriter(replacing: path)
            try records.write(to: file)
            try file.finish()
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        #expect(written[0] == written[1])
        #expect(try await SavedPostingsTests.expectSameAnswers(index, writer, seed: 5) > 10)
    }

    /// Postings whose segments `plan` writes, for a build read directly from `index`'s database.
    static func postings(_ plan: PostingsSegments.Plan, fields: SearchPostingsFields = .all) -> SearchPostings {
        SearchPostings(maxWords: 1_000_000, maxOwnMemory: .max, maxMappedBytes: .max, segmentPlan: plan, fields: fields)
    }

    /// A segment that cannot be written (a full disk, a folder gone) leaves the build in memory, which says why; a
    /// merge that cannot be written drops the postings for good, saying why.
    @Test func aSegmentThatCannotBeWrittenLeavesTheBuildInMemoryAndAMergeThatCannotDropsThePostings() async throws {
        let folder = Folder()
        let writer = try await Self.corpus(folder)
        let nowhere = Self.postings(PostingsSegments.Plan(path: folder.directory.path("gone/index.sqlite.postings"), bytes: 0))
        let built = try await writer.database.read { db in try nowhere.build(db, isCancelled: { false }) }
        guard case .inMemory(let held, let failure?) = built else { Issue.record("built \(built)"); return }
        #expect(failure.description.contains("gone/index.sqlite.postings"))
        #expect(held.rowsBuilt == Self.items + 1 && held.records != nil)

        let scratch = try TemporaryDirectory()
        let vanishing = Self.postings(PostingsSegments.Plan(path: scratch.path("index.sqlite.postings"), bytes: 0))
        guard case .inSegments(let segments) = try await writer.database.read({ db in try vanishing.build(db, isCancelled: { false }) }) else {
            Issue.record("not built in segments")
            return
        }
        try FileManager.default.removeItem(at: scratch.url)
        #expect(throws: SearchPostings.Dropped.self) { try vanishing.merged(segments, words: true, isCancelled: { false }) }
        #expect(vanishing.gaveUp)

        // The candidate records alone: only they are lost, not the postings.
        let scratchAgain = try TemporaryDirectory()
        let recordsOnly = Self.postings(PostingsSegments.Plan(path: scratchAgain.path("index.sqlite.postings"), bytes: 0))
        guard case .inSegments(let recordSegments) = try await writer.database.read({ db in try recordsOnly.build(db, words: false, isCancelled: { false }) }) else {
            Issue.record("records not made in segments")
            return
        }
        try FileManager.default.removeItem(at: scratchAgain.url)
        #expect(throws: PostingsSegments.Failure.self) { try recordsOnly.merged(recordSegments, words: false, isCancelled: { false }) }
        #expect(!recordsOnly.gaveUp)
    }

    /// The merged file a build offers its save lasts while saves are held back (a search copy being made), and goes
    /// with postings retired before the save.
    @Test func theMergedFileOfferedGoesWithRetiredPostings() async throws {
        let folder = Folder()
        let (_, index) = try await Self.builtInSegments(folder, fields: .all, holdingSaves: true)
        #expect(try Self.scratchLeft(folder).count == 1, "the merged file, offered, kept for the save")
        index.retireSearchPostings()
        // The thread that merged may let go of its copy of the result a moment after the build went on (under load,
        // the full suite's): the file goes then.
        var left = try Self.scratchLeft(folder)
        for _ in 0..<200 where !left.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
            left = try Self.scratchLeft(folder)
        }
        #expect(left.isEmpty, "\(left)")
    }

    /// A segment's scratch file lasts as long as the build holds it, and a spill told to stop (a shutdown, retired
    /// postings) says so instead of failing, keeping what it held.
    @Test func segmentsAreRemovedWhenLetGoAndASpillToldToStopSaysSo() throws {
        let folder = Folder()
        let plan = PostingsSegments.Plan(path: folder.savedPath, bytes: 0)
        var held = SearchPostings.Held(commitNumber: 1, allFields: true)
        var records = CandidateRecords.Builder(maxWords: 100)
        held.bestFields.add(1, wordsOf: ["gazelle ibex"])
        var segments: PostingsSegments? = PostingsSegments(plan: plan)
        #expect(try segments!.spill(&held, records: &records, stop: { false }))
        #expect(segments!.count == 1)
        #expect(try Self.scratchLeft(folder).count == 1, "the segment is on disk")
        #expect(held.bestFields.firstMembers(matching: .whole("gazelle"), limit: 10).isEmpty, "its members are let go")
        segments = nil
        #expect(try Self.scratchLeft(folder).isEmpty)

        held.bestFields.add(2, wordsOf: ["gazelle"])
        #expect(throws: PostingsSegments.Stopped.self) { try PostingsSegments(plan: plan).spill(&held, records: &records, stop: { true }) }
        #expect(held.bestFields.firstMembers(matching: .whole("gazelle"), limit: 10) == [2], "what it held stays")
        #expect(try Self.scratchLeft(folder).isEmpty)
    }
}
