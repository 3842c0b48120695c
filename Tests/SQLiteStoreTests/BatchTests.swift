import Foundation
@testable import Indexing
import PluginAPI
import ProcessSupport
@testable import SQLiteStore
import Testing

@Suite("Batches and client state")
struct BatchTests {
    @Test func aBatchCommitsEveryOperationInOrderWithItsClientState() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([item("old", domain: "com.a", title: "Old")])
        let batch = IndexBatch(
            operations: [.deleteDomains(["com.a"]), .upsert([item("new", domain: "com.a", title: "New")])],
            clientState: .init(batchName: "reindex.a", data: Data("checkpoint-1".utf8))
        )
        let outcome = try await fixture.index.commit(batch)

        #expect(outcome == BatchOutcome(upserted: 1, deleted: 1, commitNumber: 2))
        #expect(try await fixture.identifiers("new") == ["new"])
        #expect(try await fixture.index.lastClientState(batchName: "reindex.a") == Data("checkpoint-1".utf8))
        #expect(try await fixture.index.lastClientState(batchName: "other") == nil)
    }

    @Test func theLastCommittedClientStateWins() async throws {
        let fixture = try IndexFixture()
        for step in 1...3 {
            try await fixture.index.commit(IndexBatch(clientState: .init(batchName: "b", data: Data([UInt8(step)]))))
        }
        #expect(try await fixture.index.lastClientState(batchName: "b") == Data([3]))
    }

    @Test func aBatchWithAnInvalidItemLeavesNothingBehind() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.commit(IndexBatch(clientState: .init(batchName: "b", data: Data("before".utf8))))
        let batch = IndexBatch(
            operations: [.upsert([item("good", title: "Good"), item("bad", rankingHint: 500)])],
            clientState: .init(batchName: "b", data: Data("after".utf8))
        )
        await #expect(throws: IndexError.self) { try await fixture.index.commit(batch) }
        #expect(try await fixture.index.item(withIdentifier: "good") == nil)
        #expect(try await fixture.index.lastClientState(batchName: "b") == Data("before".utf8))
    }

    /// A failure inside SQLite, after part of the batch was written, rolls back all of it.
    @Test func aBatchThatFailsHalfwayLeavesNothingBehind() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([item("existing", domain: "com.keep", title: "Existing")])
        try sqlite3(
            fixture.index.path,
            "CREATE TRIGGER injected_failure BEFORE INSERT ON item WHEN new.uniqueIdentifier = 'boom' "
                + "BEGIN SELECT RAISE(ABORT, 'injected failure'); END;"
        )
        let batch = IndexBatch(
            operations: [
                .deleteDomains(["com.keep"]),
                .upsert([item("first", title: "First"), item("boom", title: "Boom"), item("third", title: "Third")]),
            ],
            clientState: .init(batchName: "b", data: Data("never".utf8))
        )
        await #expect(throws: (any Error).self) { try await fixture.index.commit(batch) }

        #expect(try await fixture.index.item(withIdentifier: "existing") != nil, "the delete was rolled back")
        #expect(try await fixture.index.item(withIdentifier: "first") == nil)
        #expect(try await fixture.identifiers("existing") == ["existing"], "the full-text index was rolled back too")
        #expect(try await fixture.identifiers("first").isEmpty)
        #expect(try await fixture.index.lastClientState(batchName: "b") == nil)
    }

    /// What a reindex relies on: after writing the fresh items, delete the domain's items no later commit wrote.
    @Test func deleteStaleRemovesOnlyTheDomainsItemsWrittenByEarlierCommits() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([item("kept", domain: "com.a", title: "Kept"), item("stale", domain: "com.a.sub", title: "Stale")])
        try await fixture.index.upsert([item("elsewhere", domain: "com.ab", title: "Elsewhere")])
        let baseline = try await fixture.index.lastCommitNumber()
        let refreshed = try await fixture.index.upsert([item("kept", domain: "com.a", title: "Kept")])
        #expect(refreshed.commitNumber == baseline + 1)
        #expect(try await fixture.index.itemCount(inDomain: "com.a", committedThrough: baseline) == 1)

        let outcome = try await fixture.index.commit(IndexBatch(operations: [.deleteStale(domain: "com.a", committedThrough: baseline)]))

        #expect(outcome.deleted == 1)
        #expect(try await fixture.index.itemCountsByDomain() == ["com.a": 1, "com.ab": 1])
    }

    @Test func aFailedBatchDoesNotUseUpACommitNumber() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([item("a")])
        await #expect(throws: IndexError.self) { try await fixture.index.upsert([item("bad", rankingHint: 500)]) }
        await #expect(throws: IndexError.self) {
            try await fixture.index.commit(IndexBatch(operations: [.deleteStale(domain: "bad..domain", committedThrough: 1)]))
        }
        #expect(try await fixture.index.lastCommitNumber() == 1)
    }

    @Test func deleteAllAlsoForgetsClientStates() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.commit(IndexBatch(operations: [.upsert([item("a")])], clientState: .init(batchName: "b", data: Data([1]))))
        try await fixture.index.deleteAll()
        #expect(try await fixture.index.lastClientState(batchName: "b") == nil)
    }
}

/// Runs SQL on a database file through the `sqlite3` command-line tool, as an operator would.
func sqlite3(_ path: String, _ sql: String) throws {
    let process = try ChildProcess(URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [path, sql], standardOutput: .inherited, standardError: .inherited)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "sqlite3 failed on: \(sql)")
}
