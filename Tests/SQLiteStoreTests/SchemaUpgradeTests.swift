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

extension SchemaUpgradeTests {
    /// A file as the releases from `v14-one-full-text-table` to `v21-text-dictionary` left it, its words in one FTS5
    /// table: the first open drops the table, and the items are found as before.
    @Test func theFullTextTableOfTheReleasesBeforeIsDropped() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("index.sqlite")
        do {
            // The migrations before read descriptions through `item_text`, which the index registers; none is packed here.
            var configuration = Configuration()
            configuration.prepareDatabase { db in db.add(function: DatabaseFunction("item_text", argumentCount: 1, pure: true) { $0[0] }) }
            let database = try DatabasePool(path: path, configuration: configuration)
            try SQLiteSchema.migrator.migrate(database, upTo: "v21-text-dictionary")
            try await database.write { db in
                try db.execute(sql: """
                    CREATE VIRTUAL TABLE item_fts USING fts5(title, displayName, keywords, authorNames, contentDescription,
                        content='item', content_rowid='id', tokenize="unicode61 remove_diacritics 2", prefix='1 2 3', detail=column)
                    """)
                for number in 0..<50 {
                    try db.execute(
                        sql: """
                            INSERT INTO item (id, uniqueIdentifier, domainIdentifier, contentType, title, contentDescription, keywords,
                                expirationDate, indexedAt, commitNumber)
                            VALUES (?, ?, 'com.test', 'public.item', ?, 'a zebra in the text', '[]', 4102444800, 0, 1)
                            """,
                        arguments: [number + 1, "item-\(number)", "Item \(number)"]
                    )
                }
                try db.execute(sql: "INSERT INTO item_fts(item_fts) VALUES ('rebuild')")
                try db.execute(sql: "UPDATE index_commit SET lastNumber = 1")
            }
            try database.close()
        }
        let index = try SQLiteSearchIndex(path: path, clock: ManualClock(), logger: .init(label: "test"))
        #expect(try await index.database.read { try $0.tableExists("item_fts") || $0.tableExists("item_fts_data") } == false)
        #expect(try await index.search(SearchQuery(text: "zebr", limit: 100)).total == 50)
        #expect(try await index.search(SearchQuery(text: "item 7", limit: 100)).hits.first?.uniqueIdentifier == "item-7")
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
