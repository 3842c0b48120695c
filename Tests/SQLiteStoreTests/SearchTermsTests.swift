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

/// Highlights, the ranking and the PostgreSQL and memory stores fold words in Swift (``TextFolding``); the SQLite
/// index folds the stored text in SQLite's tokenizer, and the query's words as Swift folded them. The
/// oracle is the index itself: every word character, written into a token, is read back from the index's own
/// vocabulary and compared with what Swift makes of the same token.
///
/// Known: 896 characters differ. unicode61 keeps `й`, `ё`, kana with dakuten, polytonic Greek, Hebrew points and
/// more that Swift's folding strips, folds `ſ` and a final `ς` that Swift keeps, and knows no case of scripts newer
/// than its tables (Osage, Adlam, Vithkuqi). So on SQLite a query holding such a letter misses the text that holds
/// it (`новый` does not find "Новый год"). Swift's folding should become unicode61's, character by character (or
/// SQLite should fold the typed words itself, once the 1,587 marks it splits words at are separators here too),
/// with the PostgreSQL store's stored words rewritten by a migration.
@Suite("Folding against SQLite's tokenizer")
struct TextFoldingTokenizerTests {
    @Test func everyWordCharacterFoldsAsTheIndexFoldsIt() async throws {
        let fixture = try IndexFixture()
        let mismatches = try await fixture.index.database.write { db in
            // "u<hex>q<character>": the character last, as in a word's end (where a capital sigma is final).
            var ours: [String: String] = [:], tokens: [String] = []
            for value in UInt32(0x80)...0x10FFFF {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let marker = "u" + String(value, radix: 16) + "q"
                let words = SearchTerms(marker + String(Character(scalar))).words
                // A character Swift takes for a separator leaves the marker alone: the tokenizer test covers those.
                guard words.count == 1, words[0] != marker else { continue }
                ours[marker] = words[0]
                tokens.append(marker + String(Character(scalar)))
            }
            for (row, start) in stride(from: 0, to: tokens.count, by: 2_000).enumerated() {
                try db.execute(
                    sql: "INSERT INTO item_fts_names(rowid, title, displayName) VALUES (?, ?, '')",
                    arguments: [row + 1_000_000, tokens[start..<min(start + 2_000, tokens.count)].joined(separator: " ")]
                )
            }
            try db.execute(sql: "CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, item_fts_names, row)")
            var mismatches: [String] = []
            for term in try String.fetchAll(db, sql: "SELECT term FROM temp.vocabulary WHERE term GLOB 'u*q*'") {
                guard let q = term.firstIndex(of: "q") else { continue }
                let marker = String(term[...q])
                guard let expected = ours[marker] else { continue }
                if expected != term { mismatches.append("U+\(marker.dropFirst().dropLast().uppercased()): index \(term.debugDescription), ours \(expected.debugDescription)") }
            }
            return mismatches
        }
        withKnownIssue("Swift's folding differs from unicode61's for these characters (see the suite's comment)") {
            #expect(mismatches.isEmpty, "\(mismatches.count) characters: \(mismatches)")
        }
        #expect(mismatches.count <= 896, "more characters fold apart than when this was written: \(mismatches.count)")
    }
}
