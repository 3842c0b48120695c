import Foundation
import GRDB
import Indexing
import Logging
import PluginAPI
@testable import SQLiteStore
import Store
import Testing

/// A database file written by an earlier release opens in place, keeps everything it held, and takes new writes.
@Suite("Opening a database written by an earlier release")
struct ReleaseUpgradeTests {
    /// A copy of a release's file (see `Fixtures/README.md`) in a temporary folder: a test never writes the fixture.
    static func copyOfRelease(_ name: String, into directory: TemporaryDirectory) throws -> String {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
        let path = directory.path("index.sqlite")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        return path
    }

    @Test func theLastReleaseBeforeOneModulePerBackendUpgradesInPlace() async throws {
        let directory = try TemporaryDirectory()
        let path = try Self.copyOfRelease("release-29f556b.sqlite", into: directory)
        let clock = ManualClock(ISO8601.date(from: "2026-11-25T00:00:00Z")!)
        let store = try SQLiteSchedulerStore(path: path, clock: clock, logger: Logger(label: "test"))

        let units = try await store.units()
        #expect(units.keys.sorted() == ["blog", "categories/fr", "categories/us", "help/en", "help/fr"])
        #expect(units["help/fr"]?.lastResult == .purged && units["help/fr"]?.lastSuccessAt == nil)
        #expect(units["blog"]?.lastResult == .succeeded && units["blog"]?.itemCount == 3)
        #expect(try await store.history(source: nil, limit: 10).count == 5)
        #expect(try await store.index.itemCountsByDomain() == [
            "com.shop.categories.us": 3, "com.shop.categories.fr": 2, "com.shop.help.en": 3, "com.shop.blog": 3,
        ])
        #expect(try await store.index.search(SearchQuery(text: "comt")).hits.map(\.uniqueIdentifier) == ["cheese-of-the-month-comte", "fr/12"])
        // The vocabulary typos are corrected to was made from the items the file held.
        #expect(Set(try await store.index.search(SearchQuery(text: "comtr")).hits.map(\.uniqueIdentifier)) == ["cheese-of-the-month-comte", "fr/12"])
        #expect(try await store.index.lastCommitNumber() == 11)

        // The next run of a unit writes and sweeps as on a new file.
        let blog = try #require(units["blog"])
        let checkpoint = IndexBatch.ClientState(batchName: "run/blog", data: Data("1".utf8))
        _ = try await store.writeRunBatch(
            [SearchableItem(uniqueIdentifier: "pairing-wine", domainIdentifier: "com.shop.blog", title: "Pairing cheese and cider")],
            domain: "com.shop.blog", checkpoint: checkpoint
        )
        let deleted = try await store.finishRun(
            UnitSuccess(unit: blog, finishedAt: clock.now(), fingerprint: "f", itemCount: 1), deletingItemsCommittedThrough: 11
        )
        #expect(deleted == 2)
        #expect(try await store.index.search(SearchQuery(text: "cider")).hits.map(\.uniqueIdentifier) == ["pairing-wine"])
        // The tables rebuilt with author names: an item's author is found, the release's items as before.
        _ = try await store.index.upsert([SearchableItem(uniqueIdentifier: "by-ana", domainIdentifier: "com.shop.blog", title: "Tasting notes", authorNames: ["Anaïs Dubois"])])
        #expect(try await store.index.search(SearchQuery(text: "dubois")).hits.map(\.uniqueIdentifier) == ["by-ana"])
        #expect(try await store.index.search(SearchQuery(text: "comt")).hits.map(\.uniqueIdentifier) == ["fr/12"], "the blog's comté post was swept above")

        let applied = try await DatabaseQueue(path: path).read { try SQLiteSchema.migrator.appliedIdentifiers($0) }
        #expect(applied == Set(SQLiteSchema.migrator.migrations))
        // The set of tables and indexes is that of a new file: the FTS5 table is gone.
        let fresh = directory.path("fresh.sqlite")
        _ = try SQLiteSearchIndex(path: fresh, clock: clock, logger: Logger(label: "test"))
        #expect(try Self.schema(of: path) == Self.schema(of: fresh))
    }

    @Test func theLastReleaseWithThreeFullTextTablesUpgradesInPlace() async throws {
        let directory = try TemporaryDirectory()
        let path = try Self.copyOfRelease("release-ec298dc.sqlite", into: directory)
        let clock = ManualClock(ISO8601.date(from: "2026-11-28T12:00:00Z")!)
        let store = try SQLiteSchedulerStore(path: path, clock: clock, logger: Logger(label: "test"))

        #expect(try await store.units().count == 5)
        #expect(try await store.index.itemCountsByDomain() == [
            "com.shop.categories.us": 3, "com.shop.categories.fr": 2, "com.shop.help.en": 3, "com.shop.blog": 3,
        ])
        #expect(try await store.index.lastCommitNumber() == 11)
        // The release's items are searched from the one table, ranked as before, and new ones join them.
        #expect(try await store.index.search(SearchQuery(text: "comt")).hits.map(\.uniqueIdentifier) == ["cheese-of-the-month-comte", "fr/12"])
        #expect(try await store.index.search(SearchQuery(text: "cheese", limit: 3)).hits.map(\.uniqueIdentifier) == ["us/12", "us/14", "pairing-wine"])
        _ = try await store.index.upsert([SearchableItem(uniqueIdentifier: "new", domainIdentifier: "com.shop.blog", title: "Raclette night")])
        #expect(try await store.index.search(SearchQuery(text: "racl")).hits.map(\.uniqueIdentifier) == ["new"])

        let fresh = directory.path("fresh.sqlite")
        _ = try SQLiteSearchIndex(path: fresh, clock: clock, logger: Logger(label: "test"))
        #expect(try Self.schema(of: path) == Self.schema(of: fresh))
    }

    /// Every table and index of the file at `path`, by name.
    static func schema(of path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").map { row in
                "\(row["type"] as String) \(row["name"] as String)"
            }
        }
    }
}
