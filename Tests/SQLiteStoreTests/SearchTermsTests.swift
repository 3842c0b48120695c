import Foundation
import GRDB
@testable import Indexing
import PluginAPI
@testable import SQLiteStore
import Testing

extension SearchTerms {
    /// ``match`` written as a query language would (FTS5's): what these tests compare, in short.
    var matchExpression: String? {
        match?.rendered(word: { word, isPrefix in "\"\(word)\"" + (isPrefix ? "*" : "") }, and: " AND ", or: " OR ")
    }
}

@Suite("Turning user text into search terms")
struct SearchTermsTests {
    @Test func wordsAreQuotedPrefixes() {
        #expect(SearchTerms("Chee tah").matchExpression == "\"chee\"* AND \"tah\"*")
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

    @Test func wordsJoinedWithoutSpacesAreSequences() {
        #expect(SearchTerms("Ruby 3.4.0 v2.1-RC1 en/news t-shirt (a) 3.4.0").sequences == [["3", "4", "0"], ["v2", "1", "rc1"], ["en", "news"], ["t", "shirt"]])
        #expect(SearchTerms("a.b.c.d.e.f.g.h.i one two").sequences.isEmpty, "more than 8 words is not a sequence")
        #expect(SearchTerms("Bootstrap 3.3.0").words == ["bootstrap", "3", "0"])
        #expect(SearchTerms("Bootstrap 3.3.0").sequences == [["3", "3", "0"]])
    }

    @Test func repeatedWordsAreUsedOnce() {
        #expect(SearchTerms("red RED red").words == ["red"])
    }

    /// Typed words that are a phrase of a group match it or the group's other phrases, whole; the longest phrase
    /// from the left wins, and phrases never overlap.
    @Test func synonymPhrasesBecomeAlternatives() {
        let synonyms = Synonyms(groups: [["tee", "T-shirt", "tee shirt"], ["nyc", "New York", "New York City"], ["york", "eboracum"]])
        #expect(SearchTerms("red tee", synonyms: synonyms).matchExpression == #""red"* AND ("tee"* OR ("t" AND "shirt") OR ("tee" AND "shirt"))"#)
        #expect(SearchTerms("new york city", synonyms: synonyms).matchExpression == #"(("new"* AND "york"* AND "city"*) OR "nyc" OR ("new" AND "york"))"#)
        #expect(SearchTerms("new york", synonyms: synonyms).synonyms.map(\.words) == [0..<2])
        #expect(SearchTerms("york new", synonyms: synonyms).synonyms.map(\.words) == [0..<1], "'york' alone; 'new' begins no phrase")
        #expect(SearchTerms("tee", synonyms: .none).synonyms.isEmpty)
    }

    @Test func phrasesWithoutWordsOrTooLongAreLeftOut() {
        let synonyms = Synonyms(groups: [["!!!", "a b c d e f g h i", "solo"], ["x", "y"]])
        #expect(synonyms.groups == [[["solo"]], [["x"], ["y"]]])
        #expect(SearchTerms("solo", synonyms: synonyms).synonyms.isEmpty, "a group of one phrase names no other")
    }
}

/// Highlights, the ranking, the query's words and the PostgreSQL and memory stores split and fold words in Swift
/// (``TextFolding``, ``TokenizerFolding``), as SQLite's FTS5 tokenizer `unicode61` did when the SQLite index kept
/// its words in FTS5 (and as files from before `v22-no-full-text-table` were searched). The oracle is that tokenizer:
/// every character past ASCII, written between a marker and a letter into an FTS5 table with the separators the
/// index gave it, is read back from its vocabulary, as two words where it separates words, as one where it is part of
/// a word, folded, and compared with what Swift makes of the same text.
@Suite("Folding against SQLite's tokenizer")
struct TextFoldingTokenizerTests {
    @Test func everyCharacterSplitsAndFoldsAsTheIndexDoes() async throws {
        let fixture = try IndexFixture()
        let (mismatches, checked) = try await fixture.index.database.write { db in
            // "u<hex>q<character>z": `u<hex>q` alone in the vocabulary when the character separates words.
            var ours: [(character: UInt32, words: [String])] = [], texts: [String] = []
            for value in UInt32(0x80)...0x10FFFF {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let text = "u" + String(value, radix: 16) + "q" + String(Character(scalar)) + "z"
                var words: [String] = []
                TextFolding.forEachWord(in: text) { words.append(String(decoding: $0, as: UTF8.self)); return true }
                ours.append((value, words))
                texts.append(text)
            }
            let separators = String(String.UnicodeScalarView(TextFolding.tokenizerSeparators))
            try db.execute(sql: """
                CREATE VIRTUAL TABLE temp.oracle USING fts5(title, tokenize="unicode61 remove_diacritics 2 separators '\(separators)'")
                """)
            for start in stride(from: 0, to: texts.count, by: 2_000) {
                try db.execute(sql: "INSERT INTO temp.oracle(title) VALUES (?)", arguments: [texts[start..<min(start + 2_000, texts.count)].joined(separator: " ")])
            }
            try db.execute(sql: "CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(temp, oracle, row)")
            // A marker ends at its first `q` (hexadecimal digits hold none), read by character: a `q` followed by a
            // mark is not a `Character` of its own.
            var termsByMarker: [String: [String]] = [:]
            for term in try String.fetchAll(db, sql: "SELECT term FROM temp.vocabulary WHERE term GLOB 'u*q*'") {
                guard let q = term.unicodeScalars.firstIndex(of: "q") else { continue }
                termsByMarker[String(term.unicodeScalars[...q]), default: []].append(term)
            }
            var mismatches: [String] = []
            for (character, words) in ours {
                let marker = "u" + String(character, radix: 16) + "q"
                let terms = termsByMarker[marker] ?? []
                let expected = terms == [marker] ? [marker, "z"] : terms
                if words != expected {
                    mismatches.append("U+\(String(character, radix: 16, uppercase: true)): index \(expected), ours \(words)")
                }
            }
            return (mismatches, ours.count)
        }
        #expect(checked > 1_100_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) characters: \(mismatches.prefix(20))")
    }
}
