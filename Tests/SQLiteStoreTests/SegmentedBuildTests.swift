import Foundation
import FuzzSupport
@testable import Indexing
import Logging
import ProcessSupport
@testable import SQLiteStore
import Testing

/// A build of the search postings in segments (``PostingsSegments``), what a node too small to hold them whole does:
/// the file it merges its segments into is the file a build in memory saves, byte for byte, it answers as FTS5 does,
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

    @Test(arguments: [SearchPostingsFields.best, .all])
    func segmentsMergedAreTheFileABuildInMemorySaves(fields: SearchPostingsFields) async throws {
        let folder = Folder()
        var random = SeededGenerator(seed: 10_000)
        try await folder.plain().commit(SearchPostingsTests.randomItems(0..<Self.items, &random))

        let inSegments = try Self.process(folder, fields: fields, segmentBytes: 0)
        try await inSegments.refreshSearchPostings()
        #expect(inSegments.postings.segmentsOfLastBuild == 2)
        #expect(try await SavedPostingsTests.expectSameAnswers(inSegments, folder.plain(), seed: 3) > 10)
        #expect(try Self.scratchLeft(folder).isEmpty, "the segments and their merge are removed")
        let merged = try Self.savedContent(folder)

        try FileManager.default.removeItem(atPath: folder.savedPath)
        let inMemory = try Self.process(folder, fields: fields, segmentBytes: .max)
        try await inMemory.refreshSearchPostings()
        #expect(inMemory.postings.segmentsOfLastBuild == 0)
        #expect(try Self.savedContent(folder) == merged, "the same words, members and records, in the same order")
    }

    /// Rows written after the build are caught up into postings read in place from the merged file, as into those of
    /// a restart: the members they add are copied out of the file first.
    @Test func postingsBuiltInSegmentsCatchUpLaterCommits() async throws {
        let folder = Folder()
        var random = SeededGenerator(seed: 4_097)
        let writer = try folder.plain()
        try await writer.commit(SearchPostingsTests.randomItems(0..<Self.items, &random))
        let index = try Self.process(folder, fields: .all, segmentBytes: 0)
        try await index.refreshSearchPostings()
        #expect(index.postings.segmentsOfLastBuild == 2)
        try await writer.commit(SearchPostingsTests.randomItems(5_000..<5_300, &random))
        try await writer.commit(IndexBatch(operations: [.deleteIdentifiers((0..<200).map { "i\($0)" })]))
        try await index.refreshSearchPostings()
        #expect(index.postings.rowsCaughtUpSinceBuild == 300)
        #expect(try await SavedPostingsTests.expectSameAnswers(index, writer, seed: 4) > 10)
    }

    /// A segment's scratch file lasts as long as the build holds it, and a spill given up (a shutdown) is a
    /// cancellation, not a drop of the postings.
    @Test func segmentsAreRemovedWhenLetGoAndASpillGivenUpIsACancellation() throws {
        let folder = Folder()
        let plan = PostingsSegments.Plan(path: folder.savedPath, bytes: 0)
        var held = SearchPostings.Held(commitNumber: 1, allFields: true)
        var records = CandidateRecords.Builder(maxWords: 100)
        held.bestFields.add(1, wordsOf: ["gazelle ibex"])
        var segments: PostingsSegments? = PostingsSegments(plan: plan, isCancelled: { false })
        try segments!.spill(&held, records: &records)
        #expect(segments!.count == 1)
        #expect(try Self.scratchLeft(folder).count == 1, "the segment is on disk")
        #expect(held.bestFields.firstMembers(matching: .whole("gazelle"), limit: 10).isEmpty, "its members are let go")
        segments = nil
        #expect(try Self.scratchLeft(folder).isEmpty)

        let givenUp = PostingsSegments(plan: plan, isCancelled: { true })
        #expect(throws: CancellationError.self) { try givenUp.spill(&held, records: &records) }
        #expect(try Self.scratchLeft(folder).isEmpty)
    }
}
