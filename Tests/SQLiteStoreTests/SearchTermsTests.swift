import Foundation
import GRDB
@testable import Indexing
import PluginAPI
@testable import SQLiteStore
import Testing

@Suite("Turning user text into search terms")
struct SearchTermsTests {
    @Test func wordsAreQuotedPrefixes() {
        #expect(SearchTerms("Chee tah").matchExpression == "\"chee\"* \"tah\"*")
    }

    @Test func punctuationAndOperatorsSeparateWords() {
        #expect(SearchTerms("\"a\" AND (b) -c* NEAR/2").words == ["a", "and", "b", "c", "near", "2"])
    }

    @Test func textWithoutWordsGivesNoExpression() {
        #expect(SearchTerms("*** \"\" 😀 -").matchExpression == nil)
    }

    @Test func longTextIsCappedInWordsAndLength() {
        let terms = SearchTerms((1...100).map { "w\($0)" }.joined(separator: " ") + " " + String(repeating: "x", count: 500))
        #expect(terms.words.count == SearchTerms.maxTerms)
        #expect(SearchTerms(String(repeating: "y", count: 500)).words == [String(repeating: "y", count: SearchTerms.maxTermCharacters)])
    }

    @Test func repeatedWordsAreUsedOnce() {
        #expect(SearchTerms("red RED red").words == ["red"])
    }
}

/// The index's tables record rows only (`detail=none`), so FTS5 refuses a quoted term that its tokenizer splits
/// in two: each search term must be one token to SQLite's own tokenizer, the oracle here, for every character.
@Suite("Search terms against SQLite's tokenizer")
struct SearchTermsTokenizerTests {
    @Test func everyWordCharacterKeepsATermOneToken() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.commit(IndexBatch(operations: [.upsert([item("a", title: "ab")])]))
        let refused = try await fixture.index.database.read { db in
            var refused: [String] = []
            let statement = try db.makeStatement(
                sql: "SELECT count(*) FROM item_fts_names WHERE item_fts_names MATCH ?"
            )
            for value in UInt32(0x80)...0x10FFFF {
                guard let scalar = Unicode.Scalar(value) else { continue }
                // A character the folding takes for a separator gives two terms: nothing to ask.
                let terms = SearchTerms("a\(Character(scalar))b")
                guard terms.words.count == 1, let match = terms.matchExpression else { continue }
                do {
                    _ = try Int.fetchOne(statement, arguments: [match])
                } catch {
                    refused.append(String(format: "U+%04X ", value) + "\(error)")
                }
            }
            return refused
        }
        #expect(refused.isEmpty, "\(refused.count) characters: \(refused.prefix(10))")
    }
}
