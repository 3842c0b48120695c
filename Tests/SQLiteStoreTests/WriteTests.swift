import Foundation
@testable import Indexing
import PluginAPI
@testable import SQLiteStore
import Testing

@Suite("Writing to the index")
struct WriteTests {
    @Test func upsertReplacesTheWholeItem() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([
            item("a", title: "Cheetah", description: "fast cat", keywords: ["spots"], rankingHint: 10)
        ])
        try await fixture.index.upsert([item("a", domain: "com.other", title: "Lion")])

        let stored = try #require(try await fixture.index.item(withIdentifier: "a"))
        #expect(stored.title == "Lion")
        #expect(stored.domainIdentifier == "com.other")
        #expect(stored.contentDescription == nil)
        #expect(stored.keywords.isEmpty)
        #expect(stored.rankingHint == nil)
        #expect(try await fixture.identifiers("chee").isEmpty, "the replaced text is no longer searchable")
        #expect(try await fixture.identifiers("lio") == ["a"])
        #expect(try await fixture.index.itemCountsByDomain() == ["com.other": 1])
    }

    /// A batch's rows get their words at the end of the batch, in one statement: an identifier the batch writes
    /// twice (keeping its id, or in another priority band), a stored item it replaces twice, or an item it writes then
    /// deletes, leaves the full-text table exact.
    @Test func anItemWrittenTwiceOrWrittenThenDeletedInOneCommitLeavesTheWordsExact() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([item("kept", title: "Walrus"), item("twice", title: "Otter")])
        try await fixture.index.commit(IndexBatch(operations: [
            .upsert([
                item("a", title: "Cheetah"), item("b", title: "Badger"), item("a", title: "Leopard", rankingHint: 50),
                item("kept", title: "Walrus tusks"), item("c", title: "Heron"), item("d", title: "Gecko"), item("d", title: "Iguana"),
                item("twice", title: "Otter pup"), item("twice", title: "Sea otter"),
            ]),
            .deleteIdentifiers(["b"]),
            .upsert([item("c", title: "Crane")]),
        ]))

        #expect(try await fixture.identifiers("chee").isEmpty, "the first write of a is replaced")
        #expect(try await fixture.identifiers("leop") == ["a"])
        #expect(try await fixture.identifiers("badg").isEmpty, "b was deleted after it was written")
        #expect(try await fixture.identifiers("walrus tusk") == ["kept"])
        #expect(try await fixture.identifiers("heron").isEmpty)
        #expect(try await fixture.identifiers("crane") == ["c"])
        #expect(try await fixture.identifiers("gecko").isEmpty, "d keeps its id, and only its last words")
        #expect(try await fixture.identifiers("iguana") == ["d"])
        #expect(try await fixture.identifiers("pup").isEmpty, "a stored item replaced twice in one batch")
        #expect(try await fixture.identifiers("sea otter") == ["twice"])
    }

    /// What a periodic reindex mostly writes: the same items again, with a later expiration.
    @Test func upsertingUnchangedContentRenewsTheItemAndKeepsItSearchable() async throws {
        let fixture = try IndexFixture()
        let soon = fixture.clock.now().addingTimeInterval(3600), later = fixture.clock.now().addingTimeInterval(86_400)
        try await fixture.index.upsert([item("a", title: "Cheetah", keywords: ["spots"], expires: soon), item("b", title: "Cheetah cub")])
        let baseline = try await fixture.index.lastCommitNumber()

        try await fixture.index.upsert([item("a", title: "Cheetah", keywords: ["spots"], expires: later)])

        #expect(try await fixture.index.item(withIdentifier: "a")?.expirationDate == later)
        #expect(try await fixture.index.itemCount(inDomain: "com.test", committedThrough: baseline) == 1, "only b is older than the baseline")
        #expect(try await fixture.identifiers("chee") == ["a", "b"])
        #expect(try await fixture.identifiers("spots") == ["a"])

        // A change to any field replaces the words too.
        try await fixture.index.upsert([item("a", title: "Leopard", keywords: ["spots"], expires: later)])
        #expect(try await fixture.identifiers("chee") == ["b"])
        #expect(try await fixture.identifiers("leop") == ["a"])
    }

    @Test func deletingADomainDeletesEveryDomainUnderItButNotItsNamesakes() async throws {
        let fixture = try IndexFixture()
        let domains = ["com.shop", "com.shop.fr", "com.shop.fr.paris", "com.shopping", "com.sho", "com.shop-x", "com"]
        try await fixture.index.upsert(domains.map { item($0, domain: $0, title: "thing") })

        let outcome = try await fixture.index.delete(domains: ["com.shop"])

        #expect(outcome.deleted == 3)
        #expect(Set(try await fixture.index.itemCountsByDomain().keys) == ["com.shopping", "com.sho", "com.shop-x", "com"])
        #expect(Set(try await fixture.identifiers("thing")) == ["com.shopping", "com.sho", "com.shop-x", "com"])
    }

    @Test func deleteByIdentifiersAndEverything() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert((1...5).map { item("i\($0)", title: "word") })

        #expect(try await fixture.index.delete(identifiers: ["i1", "i3", "missing"]).deleted == 2)
        #expect(Set(try await fixture.identifiers("word")) == ["i2", "i4", "i5"])
        #expect(try await fixture.index.deleteAll().deleted == 3)
        #expect(try await fixture.identifiers("word").isEmpty)
        #expect(try await fixture.index.itemCountsByDomain().isEmpty)
    }

    @Test func countsItemsPerDomainAndUnderADomain() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert(
            [item("a", domain: "com.a"), item("b", domain: "com.a.b"), item("c", domain: "com.a.b"), item("d", domain: "com.ab")]
        )
        #expect(try await fixture.index.itemCountsByDomain() == ["com.a": 1, "com.a.b": 2, "com.ab": 1])
        #expect(try await fixture.index.itemCount(inDomain: "com.a") == 3)
        #expect(try await fixture.index.itemCount(inDomain: "com.zzz") == 0)
    }

    @Test func anInvalidDomainInADeleteIsRefused() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([item("a")])
        await #expect(throws: IndexError.self) { try await fixture.index.delete(domains: ["com.test", "bad..domain"]) }
        #expect(try await fixture.index.itemCount(inDomain: "com.test") == 1, "nothing was deleted")
    }

    @Test func itemsSurviveReopeningTheDatabase() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([item("kept", title: "Persistent")])
        let reopened = try SQLiteSearchIndex(path: fixture.index.path, clock: fixture.clock, logger: .init(label: "test"))
        #expect(try await reopened.item(withIdentifier: "kept")?.title == "Persistent")
    }
}
