import Foundation
import FuzzSupport
@testable import Indexing
import PluginAPI
@testable import SQLiteStore
import Testing

/// A node too small for the search postings of its index: building them stops once the process's own memory passes
/// its bound (``SearchPostings/maxOwnMemory``), instead of the process being killed for its memory at every start,
/// and searches answer as a scan of the rows does. The bound here is one byte: every check finds the process past it.
@Suite("Search postings past their memory bound", .timeLimit(.minutes(5)))
struct PostingsMemoryBoundTests {
    typealias Folder = SavedPostingsTests.Folder

    /// Fails unless `index` answers 30 random queries as `plain` (a scan of the rows) does; returns how many batches its postings
    /// answered and how many candidates came from its records.
    static func expectSameAnswers(_ index: SQLiteSearchIndex, _ plain: SQLiteSearchIndex, seed: UInt64) async throws -> (batches: Int, fromRecords: Int) {
        var random = SeededGenerator(seed: seed)
        let (batches, recorded) = (index.postings.batchesAnswered, index.postings.candidatesFromRecords)
        for _ in 0..<30 {
            let query = try SearchPostingsTests.randomQuery(&random)
            let kept = try await index.search(query), fullText = try await plain.search(query)
            #expect(kept.hits.map(\.uniqueIdentifier) == fullText.hits.map(\.uniqueIdentifier), "\(query.text)")
            #expect(kept.total == fullText.total, "\(query.text)")
        }
        return (index.postings.batchesAnswered - batches, index.postings.candidatesFromRecords - recorded)
    }

    @Test func aBuildPastTheBoundDropsThePostingsSavesNothingAndSearchesStayRight() async throws {
        let folder = Folder()
        var random = SeededGenerator(seed: 81)
        let plain = try folder.plain()
        try await plain.commit(SearchPostingsTests.randomItems(0..<600, &random))

        let small = try folder.process(maxOwnMemory: 1)
        #expect(try await small.saveSearchStructures(mayBuild: { true }) == .noneKept, "what `index import` reports")
        #expect(small.searchStructureRows == 0)
        #expect(folder.log.contains("making the search postings takes this process's own memory"))
        #expect(folder.log.contains("give the service more memory"), "the warning says what to do")
        #expect(!FileManager.default.fileExists(atPath: folder.savedPath), "nothing saved")
        try await small.refreshSearchPostings()
        #expect(small.searchStructureRows == 0, "not built again: the build would stop again")
        #expect(try await Self.expectSameAnswers(small, plain, seed: 82).batches == 0, "a scan of the rows answers every search")

        // A process with room for them builds them, on the same file.
        let roomy = try folder.process()
        try await roomy.refreshSearchPostings()
        #expect(roomy.searchStructureRows == 600)
        #expect(try await Self.expectSameAnswers(roomy, plain, seed: 83).batches > 10)
    }

    /// A process whose postings were read from their saved file (mapped: none of its own memory) and are caught up
    /// past the bound drops them, whichever way they grow: a large import the keeper follows step by step, a commit
    /// too large to follow that makes it build them again while the old ones are held.
    @Test(arguments: [false, true])
    func postingsReadFromTheirFileAndGrownPastTheBoundAreDropped(oneLargeCommit: Bool) async throws {
        let folder = Folder()
        _ = try await SavedPostingsTests.savedByAFirstProcess(folder)
        let small = try folder.process(maxOwnMemory: 1)
        try await small.refreshSearchPostings()
        #expect(folder.log.contains("read the saved search postings"), "reading the saved file takes no memory of its own")
        #expect(small.searchStructureRows == 600)

        var random = SeededGenerator(seed: 86)
        let plain = try folder.plain()
        try await plain.commit(SearchPostingsTests.randomItems(600..<1_200, &random))
        try await small.refreshSearchPostings(rowsAStep: oneLargeCommit ? 50 : 200)
        #expect(folder.log.contains(oneLargeCommit ? "making the search postings takes" : "making the search postings catch up takes"))
        #expect(small.searchStructureRows == 0, "dropped, not left holding what they held")
        #expect(try await Self.expectSameAnswers(small, plain, seed: 87).batches == 0)
    }

    /// Rows caught up by others than the keeper (a replica's follower after each page, searches) are looked at too: the
    /// keeper's next look drops the postings they took past the bound, even when it has nothing left to step.
    @Test func postingsCaughtUpByAFollowerPastTheBoundAreDroppedAtTheKeepersNextLook() async throws {
        let folder = Folder()
        _ = try await SavedPostingsTests.savedByAFirstProcess(folder)
        let small = try folder.process(maxOwnMemory: 1)
        try await small.refreshSearchPostings()
        #expect(small.searchStructureRows == 600, "read from the file: nothing caught up, nothing to look at")

        var random = SeededGenerator(seed: 84)
        let plain = try folder.plain()
        for start in stride(from: 600, to: 1_000, by: 200) {
            try await plain.commit(SearchPostingsTests.randomItems(start..<start + 200, &random))
            try await small.catchUpSearchPostings(ifAtMost: 1_000)
        }
        #expect(small.searchStructureRows == 1_000, "caught up page by page, as a search copy's follower does")
        try await small.refreshSearchPostings()
        #expect(folder.log.contains("making the search postings catch up takes this process's own memory"))
        #expect(small.searchStructureRows == 0)
        #expect(try await Self.expectSameAnswers(small, plain, seed: 85).batches == 0)
    }

    /// Postings retired by another task (a search copy made again in a new file) while a build reads their rows: the
    /// build stops, and the keeper that ran it goes on (a `CancellationError` would have ended it for good).
    @Test func aBuildOfPostingsRetiredMeanwhileStopsWithoutEndingTheKeeper() async throws {
        let folder = Folder()
        var random = SeededGenerator(seed: 88)
        try await folder.plain().commit(SearchPostingsTests.randomItems(0..<5_000, &random))
        let index = try folder.process()
        index.retireSearchPostings()
        try await index.buildSearchPostings()
        #expect(index.searchStructureRows == 0)
    }
}
