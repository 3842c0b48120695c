import Foundation
import HostSupport
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// Items written again with the same content (what a periodic full reindex mostly writes): every store marks them as
/// written by the commit, so a run's sweep spares them, without rewriting their content; their expiration date moves
/// only once a quarter of their lifetime has passed; any change of content rewrites them whole.
@Suite("Unchanged items on every store")
struct UnchangedItemTests {
    static let now = ISO8601.date(from: "2026-03-01T12:00:00Z")!
    static let day: TimeInterval = 86_400

    static func item(_ id: String, title: String = "Title", expires: Date? = nil) -> SearchableItem {
        var item = SearchableItem(uniqueIdentifier: id, domainIdentifier: "com.shop.help", title: title, keywords: ["help"], rankingHint: 10)
        item.thumbnailData = Data(repeating: 7, count: 2_000)
        item.expirationDate = expires
        return item
    }

    static func write(_ items: [SearchableItem], to store: any SchedulerStore, expiring expiration: DefaultExpiration) async throws -> RunBatchOutcome {
        var changes = RunChanges(defaultExpiration: expiration)
        for item in items { changes.upsert(item) }
        return try await store.writeRunBatch(changes, domain: "com.shop.help", checkpoint: IndexBatch.ClientState(batchName: "run/help", data: Data("c".utf8)))
    }

    /// A forced full run over the same items: reported unchanged, still found, and spared by the sweep of the items
    /// the run did not send.
    @Test(arguments: StoreBackend.allCases)
    func aFullRunOverTheSameItemsRewritesNothingAndSweepsOnlyWhatItDidNotSend(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: FixedWallClock(Self.now)) { store in
            let expiration = DefaultExpiration(lifetime: 30 * Self.day, from: Self.now)
            let first = try await Self.write([Self.item("a"), Self.item("b"), Self.item("c")], to: store, expiring: expiration)
            #expect(first.upserted == 3 && first.unchanged == 0)

            let baseline = try await store.index.lastCommitNumber()
            let again = try await Self.write([Self.item("a"), Self.item("b", title: "Renamed")], to: store, expiring: expiration)
            #expect(again.upserted == 2 && again.unchanged == 1, "a is unchanged, b changed")
            let unit = UnitState(unit: "help", source: "help", domain: "com.shop.help")
            let swept = try await store.finishRun(
                UnitSuccess(unit: unit, finishedAt: Self.now, fingerprint: "f", itemCount: 2, mode: .full, state: nil),
                deletingItemsCommittedThrough: baseline
            )
            #expect(swept == 1, "only c, which the run did not send")
            #expect(try await store.index.item(withIdentifier: "a") != nil)
            #expect(try await store.index.item(withIdentifier: "c") == nil)
            let hits = try await store.index.search(SearchQuery(text: "renamed")).hits.map(\.uniqueIdentifier)
            #expect(hits == ["b"], "the changed item's words were rewritten")
            #expect(try await store.index.search(SearchQuery(text: "title")).hits.map(\.uniqueIdentifier) == ["a"])
            #expect(try await store.index.item(withIdentifier: "a")?.thumbnailData?.count == 2_000)
        }
    }

    /// Every field is content: changing any one of them rewrites the item.
    @Test(arguments: StoreBackend.allCases)
    func aChangeOfAnyFieldRewritesTheItem(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: FixedWallClock(Self.now)) { store in
            let expiration = DefaultExpiration(lifetime: 30 * Self.day, from: Self.now)
            let base = Self.item("a")
            _ = try await Self.write([base], to: store, expiring: expiration)
            var changes: [SearchableItem] = []
            func changed(_ change: (inout SearchableItem) -> Void) {
                var item = changes.last ?? base
                change(&item)
                changes.append(item)
            }
            changed { $0.contentType = "public.text" }
            changed { $0.displayName = "Shown" }
            changed { $0.contentDescription = "About" }
            changed { $0.keywords = ["help", "faq"] }
            changed { $0.authorNames = ["Ann"] }
            changed { $0.contentCreationDate = Self.now }
            changed { $0.contentModificationDate = Self.now }
            changed { $0.thumbnailURL = "https://cdn.example.com/a.png" }
            changed { $0.thumbnailData?[1_999] = 8 }
            changed { $0.contentURL = "shop://help/a" }
            changed { $0.relatedUniqueIdentifier = "b" }
            changed { $0.rankingHint = 11 }
            changed { $0.expirationDate = Self.now.addingTimeInterval(Self.day) }
            changed { $0.title = "Title\u{301}" }
            for item in changes {
                let outcome = try await Self.write([item], to: store, expiring: expiration)
                #expect(outcome.unchanged == 0, "\(item)")
                var expected = item
                expected.expirationDate = expiration.expiration(of: item)
                #expect(try await store.index.item(withIdentifier: "a") == expected, "stored as sent")
            }
            #expect(try await Self.write([changes.last!], to: store, expiring: expiration).unchanged == 1)
        }
    }

    /// An item without its own date keeps its stored one until a quarter of its lifetime passed; one with its own
    /// date keeps it exactly, and a moved date is a change.
    @Test(arguments: StoreBackend.allCases)
    func theExpirationOfAnUnchangedItemMovesOnceAQuarterOfItsLifetimePassed(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: FixedWallClock(Self.now)) { store in
            let lifetime = 40 * Self.day
            let own = Self.now.addingTimeInterval(100 * Self.day)
            let items = [Self.item("default"), Self.item("own", expires: own)]
            _ = try await Self.write(items, to: store, expiring: DefaultExpiration(lifetime: lifetime, from: Self.now))
            func expiration(_ id: String) async throws -> Date? { try await store.index.item(withIdentifier: id)?.expirationDate }
            #expect(try await expiration("default") == Self.now.addingTimeInterval(lifetime))

            let soon = Self.now.addingTimeInterval(9 * Self.day)
            #expect(try await Self.write(items, to: store, expiring: DefaultExpiration(lifetime: lifetime, from: soon)).unchanged == 2)
            #expect(try await expiration("default") == Self.now.addingTimeInterval(lifetime), "9 days of 40: not renewed")

            let later = Self.now.addingTimeInterval(11 * Self.day)
            #expect(try await Self.write(items, to: store, expiring: DefaultExpiration(lifetime: lifetime, from: later)).unchanged == 2)
            #expect(try await expiration("default") == later.addingTimeInterval(lifetime), "11 days of 40: renewed")
            #expect(try await expiration("own") == own, "its own date, whatever the batch's")

            // A shorter lifetime configured: the stored date comes back as soon as it is a quarter off.
            #expect(try await Self.write(items, to: store, expiring: DefaultExpiration(lifetime: 10 * Self.day, from: later)).unchanged == 2)
            #expect(try await expiration("default") == later.addingTimeInterval(10 * Self.day))
        }
    }

    /// The composed and decomposed spellings of "café" are two items to every store: sent together in one batch, one
    /// renewed and the other changed, each is written as itself (a lookup by Swift's `==` once confused them, and the
    /// second write failed on the first one's row id).
    @Test(arguments: StoreBackend.allCases)
    func twoSpellingsOfOneIdentifierInABatchAreTwoItems(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: FixedWallClock(Self.now)) { store in
            let lifetime = 40 * Self.day
            let composed = Self.item("caf\u{e9}"), decomposed = Self.item("cafe\u{301}")
            #expect(Array(composed.uniqueIdentifier.utf8) != Array(decomposed.uniqueIdentifier.utf8))
            let first = try await Self.write([composed, decomposed], to: store, expiring: DefaultExpiration(lifetime: lifetime, from: Self.now))
            #expect(first.upserted == 2 && first.unchanged == 0)

            var renamed = decomposed
            renamed.title = "Renamed"
            let later = Self.now.addingTimeInterval(11 * Self.day)
            let second = try await Self.write([composed, renamed], to: store, expiring: DefaultExpiration(lifetime: lifetime, from: later))
            #expect(second.upserted == 2 && second.unchanged == 1, "the composed one renewed, the decomposed one rewritten")
            #expect(try await store.index.item(withIdentifier: composed.uniqueIdentifier)?.title == "Title")
            #expect(try await store.index.item(withIdentifier: composed.uniqueIdentifier)?.expirationDate == later.addingTimeInterval(lifetime))
            #expect(try await store.index.item(withIdentifier: renamed.uniqueIdentifier)?.title == "Renamed")
        }
    }
}
