import Foundation
import Indexing
import Logging
import PluginAPI
import SchedulerService
import Store
import StoreSupport
import Testing

/// A PostgreSQL store written by an earlier release opens with what this release needs.
@Suite("Upgrading a PostgreSQL store")
struct PostgresUpgradeTests {
    /// Earlier releases folded words in Swift (`й` to `и`, a Devanagari word whole without its vowel signs), not as
    /// SQLite's tokenizer does, and kept no vocabulary: opening folds the stored words of items past ASCII again, so
    /// they are found as typed, and makes the vocabulary from the stored items, so typos are corrected.
    @Test func wordsStoredFoldedTheEarlierWayAreFoundOnceTheStoreOpens() async throws {
        guard case .postgres(let location) = try await StoreBackend.postgres.freshLocation(in: FileManager.default.temporaryDirectory) else {
            Issue.record("not a PostgreSQL location")
            return
        }
        let items = [("ru", "Новый год"), ("hi", "हिन्दी समाचार"), ("en", "Plain English")].map { id, title in
            SearchableItem(uniqueIdentifier: id, domainIdentifier: "com.shop.help", title: title)
        }
        try await StoreOpener.withStore(.postgres(location), logger: PostgresOpeningTests.quiet) { store in
            _ = try await store.index.upsert(items)
        }
        // The words an earlier release stored, and its record of the migrations before this one.
        for (id, words) in [("ru", "{новыи,год}"), ("hi", "{हनद,समचर}")] {
            try await location.execute(statementWrittenByThisProgram: """
                UPDATE item SET words_all = array_to_tsvector('\(words)'), words_best = array_to_tsvector('\(words)'),
                    words_names = array_to_tsvector('\(words)') WHERE unique_identifier = '\(id)'
                """)
        }
        // A release before the vocabulary typos are corrected to.
        try await location.execute(statementWrittenByThisProgram: "DROP TABLE search_term")
        try await location.execute(statementWrittenByThisProgram: "DELETE FROM scheduler_migration WHERE name LIKE 'v4-%' OR name LIKE 'v5-%'")

        let found = try await StoreOpener.withStore(.postgres(location), logger: PostgresOpeningTests.quiet) { store in
            var found: [String: [String]] = [:]
            for query in ["новый", "हिन्दी", "समाचार", "plain", "englihs"] {
                found[query] = try await store.index.search(SearchQuery(text: query)).hits.map(\.uniqueIdentifier)
            }
            return found
        }
        #expect(found == ["новый": ["ru"], "हिन्दी": ["hi"], "समाचार": ["hi"], "plain": ["en"], "englihs": ["en"]])
    }

    /// A store written before items had authors and content dates gains the columns; its items are found as before and
    /// keep no author; new items store and search theirs.
    @Test func aStoreWithoutAuthorsAndDatesGainsThem() async throws {
        guard case .postgres(let location) = try await StoreBackend.postgres.freshLocation(in: FileManager.default.temporaryDirectory) else {
            Issue.record("not a PostgreSQL location")
            return
        }
        try await StoreOpener.withStore(.postgres(location), logger: PostgresOpeningTests.quiet) { store in
            _ = try await store.index.upsert([SearchableItem(uniqueIdentifier: "old", domainIdentifier: "com.blog", title: "Cheese history")])
        }
        for statement in [
            "ALTER TABLE item DROP COLUMN author_names", "ALTER TABLE item DROP COLUMN content_creation_date",
            "ALTER TABLE item DROP COLUMN content_modification_date", "ALTER TABLE item DROP COLUMN related_unique_identifier",
            "DELETE FROM scheduler_migration WHERE name LIKE 'v8-%'",
        ] {
            try await location.execute(statementWrittenByThisProgram: statement)
        }
        let created = try #require(ISO8601.date(from: "2026-03-01T00:00:00Z"))
        let (old, newest) = try await StoreOpener.withStore(.postgres(location), logger: PostgresOpeningTests.quiet) { store in
            _ = try await store.index.upsert([
                SearchableItem(uniqueIdentifier: "new", domainIdentifier: "com.blog", title: "Cheese today", authorNames: ["Ana"], contentCreationDate: created),
            ])
            return (
                try await store.index.item(withIdentifier: "old"),
                try await store.index.search(SearchQuery(text: "cheese", sort: .newest)).hits.map(\.uniqueIdentifier)
            )
        }
        #expect(old?.title == "Cheese history" && old?.authorNames == [] && old?.contentCreationDate == nil)
        #expect(newest == ["new", "old"])
    }
}
