import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// Version numbers and codes typed whole (`3.4.0`, `v2.1-rc1`, `en/news`) find the items holding that sequence
/// first, on every store, while their parts still match as prefixes.
@Suite("Version numbers and codes match as typed")
struct VersionNumberTests {
    /// Titles as release blogs write them, with the near misses that used to outrank them.
    static let titles = [
        ("ruby-304", "Ruby 3.0.4 Released"), ("ruby-340", "Ruby 3.4.0 Released"), ("ruby-341", "Ruby 3.4.1 Released"),
        ("ruby-243", "Ruby 2.4.3 Released"), ("jekyll-404", "Jekyll 4.0.4 Released"), ("jekyll-440", "Jekyll 4.4.0 Released"),
        ("jekyll-400", "Jekyll 4.0.0 Released"), ("bootstrap-303", "Bootstrap 3.0.3 released"), ("bootstrap-330", "Bootstrap 3.3.0 released"),
        ("bootstrap-337", "Bootstrap 3.3.7 released"), ("rc1", "Version v2.1-rc1 is out"), ("v21", "Version 1 of v2 is out, rc1 follows"),
        ("en-news", "Archive of en/news"), ("news-en", "News in en, archive"),
    ]

    @Test(arguments: StoreBackend.allCases)
    func anItemHoldingTheTypedSequenceRanksFirst(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: StoreConformanceTests.clock) { store in
            // Priorities favour the near misses: they were indexed first.
            try await store.index.upsert(Self.titles.map { SearchableItem(uniqueIdentifier: $0.0, domainIdentifier: "com.blog", title: $0.1) })
            for (query, first) in [
                ("Ruby 3.4.0 Released", "ruby-340"), ("4.4.0", "jekyll-440"), ("Bootstrap 3.3.0 released", "bootstrap-330"),
                ("v2.1-rc1", "rc1"), ("en/news", "en-news"), ("3.0.4", "ruby-304"), ("jekyll 4.0.0", "jekyll-400"),
            ] {
                let hits = try await store.index.search(SearchQuery(text: query)).hits.map(\.uniqueIdentifier)
                #expect(hits.first == first, "\(query): \(hits)")
            }
            // The parts still match as prefixes, the sequence's holders first.
            let partial = try await store.index.search(SearchQuery(text: "ruby 3.4")).hits.map(\.uniqueIdentifier)
            #expect(Set(partial.prefix(2)) == ["ruby-340", "ruby-341"] && partial.contains("ruby-304"), "\(partial)")
        }
    }

    /// A title that is exactly the typed words comes first, above items of higher priority that hold more.
    @Test(arguments: StoreBackend.allCases)
    func aTitleThatIsExactlyTheTypedWordsRanksFirst(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: StoreConformanceTests.clock) { store in
            try await store.index.upsert([
                SearchableItem(uniqueIdentifier: "release", domainIdentifier: "com.blog", title: "Jekyll 4.4.0 Released", rankingHint: 100),
                SearchableItem(uniqueIdentifier: "docs", domainIdentifier: "com.blog", title: "Jekyll docs", rankingHint: 100),
                SearchableItem(uniqueIdentifier: "home", domainIdentifier: "com.blog", title: "Jekyll"),
                SearchableItem(uniqueIdentifier: "themes", domainIdentifier: "com.blog", title: "Jekyll Themes"),
            ])
            for query in ["jekyll", "JEKYLL!"] {
                #expect(try await store.index.search(SearchQuery(text: query)).hits.first?.uniqueIdentifier == "home", "\(query)")
            }
            #expect(try await store.index.search(SearchQuery(text: "jekyll themes")).hits.first?.uniqueIdentifier == "themes")
            #expect(try await store.index.search(SearchQuery(text: "jekyll the")).hits.first?.uniqueIdentifier == "themes", "a prefix of a one-word rest")
        }
    }
}
