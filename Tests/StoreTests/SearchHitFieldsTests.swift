import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// What a hit returns of its item, alike on every store.
@Suite("The fields of a hit on every store")
struct SearchHitFieldsTests {
    @Test(arguments: StoreBackend.searching)
    func aHitCarriesItsThumbnailAddressNeverItsBytes(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: StoreConformanceTests.clock) { store in
            try await store.index.upsert([
                SearchableItem(uniqueIdentifier: "linked", domainIdentifier: "com.shop", title: "Cheese boards", thumbnailURL: "https://cdn.example/boards.png"),
                SearchableItem(uniqueIdentifier: "bytes", domainIdentifier: "com.shop", title: "Cheese knives", thumbnailData: Data([0x89, 0x50, 0x4E, 0x47])),
            ])
            let hits = try await store.index.search(SearchQuery(text: "cheese")).hits
            #expect(Dictionary(uniqueKeysWithValues: hits.map { ($0.uniqueIdentifier, $0.thumbnailURL) }) == ["linked": "https://cdn.example/boards.png", "bytes": nil])
            let json = String(decoding: try JSONEncoder().encode(hits.first { $0.uniqueIdentifier == "bytes" }), as: UTF8.self)
            #expect(json.contains("\"thumbnailURL\":null"), "every key is present")
        }
    }
}
