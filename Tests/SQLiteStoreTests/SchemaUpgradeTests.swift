import Foundation
import GRDB
@testable import Indexing
import ProcessSupport
@testable import SQLiteStore
import Synchronization
import Testing

@Suite("Upgrading an index file")
struct SchemaUpgradeTests {
    @Test func anIndexWrittenByTheFirstSchemaIsUpgradedAndRanksItsBestFields() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("index.sqlite")
        do {
            // The file as the first version of the index left it: items in `item` and `item_fts` only.
            let database = try DatabasePool(path: path)
            try SQLiteSchema.migrator.migrate(database, upTo: "v1-index")
            try await database.write { db in
                for number in 0...150 {
                    let title = number == 150 ? "Zebra" : "Item \(number)"
                    let description = number == 150 ? nil : "a zebra in the text"
                    try db.execute(
                        sql: """
                            INSERT INTO item (id, uniqueIdentifier, domainIdentifier, contentType, title,
                                contentDescription, keywords, expirationDate, indexedAt, commitNumber)
                            VALUES (?, ?, 'com.test', 'public.item', ?, ?, '[]', 4102444800, 0, 1)
                            """,
                        arguments: [number + 1, "item-\(number)", title, description]
                    )
                    try db.execute(
                        sql: "INSERT INTO item_fts(rowid, title, keywords, contentDescription) VALUES (?, ?, '[]', ?)",
                        arguments: [number + 1, title, description]
                    )
                }
            }
            try database.close()
        }

        let index = try SQLiteSearchIndex(path: path, clock: ManualClock(), logger: .init(label: "test"))
        let results = try await index.search(SearchQuery(text: "zeb", limit: 1))
        #expect(results.hits.map(\.uniqueIdentifier) == ["item-150"], "the title match behind 150 others ranks first")
        try await index.delete(identifiers: ["item-150"])
        #expect(try await index.search(SearchQuery(text: "zebra", limit: 1)).hits.map(\.uniqueIdentifier) == ["item-0"])
        #expect(try await index.database.read { try $0.tableExists("item_fts") } == false, "the FTS5 table is dropped")
    }
}

@Suite("Opening a new index file from several processes")
struct ConcurrentOpenTests {
    /// Replicas and operator commands (`scheduler search` while `run-once` creates the file) open a new file
    /// together: each connection is what another process would hold, so they race for the schema as processes do.
    /// Each opener runs on a thread of its own: they wait on SQLite's locks, which would hold the threads Swift's
    /// tasks run on (`DispatchQueue.concurrentPerform` uses those on Linux) while other tests need them.
    @Test func everyOpenerOfANewFileSucceedsAndTheSchemaIsCreatedOnce() async throws {
        let directory = try TemporaryDirectory()
        for round in 0..<20 {
            let path = directory.path("index-\(round).sqlite")
            let failures = Mutex<[String]>([])
            try await onOwnThread {
                let openers = DispatchGroup()
                for _ in 0..<6 {
                    openers.enter()
                    Thread.detachNewThread {
                        defer { openers.leave() }
                        do {
                            _ = try SQLiteSearchIndex(path: path, clock: ManualClock(), logger: .init(label: "test"))
                        } catch {
                            failures.withLock { $0.append("\(error)") }
                        }
                    }
                }
                openers.wait()
            }
            #expect(failures.withLock { $0 } == [], "round \(round)")
            let database = try DatabaseQueue(path: path)
            let applied = try await database.read { try SQLiteSchema.migrator.appliedMigrations($0) }
            #expect(applied == SQLiteSchema.migrator.migrations, "each migration once, in order")
            #expect(applied.last == "v22-no-full-text-table")
        }
    }
}
