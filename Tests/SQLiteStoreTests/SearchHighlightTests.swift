import FuzzSupport
@testable import Indexing
import PluginAPI
import Testing

/// Highlights are read by JavaScript's `String.slice`: on any text (combining marks, emoji and other characters
/// outside the Basic Multilingual Plane, right-to-left scripts, control characters) every range lies in the text,
/// never splits a surrogate pair, covers a whole word that starts with a query word, and every such word has one.
@Suite("Highlights against the stored text")
struct SearchHighlightTests {
    static let pieces = [
        "cafe", "café", "cafe\u{301}", "Éclair", "😀", "👩‍👩‍👧", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "שלום", "مرحبا", "漢字", "x\u{20DD}", "\u{1}", "\u{7}",
        "\t", " ", " ", "-", ".", "ABC", "ab", "a", "9", "ǅungla", "İstanbul", "ß", "\u{200F}", "\u{FEFF}", "ﬁne",
    ]

    /// The words of `text` as the index folds them, with where they are.
    static func words(of text: String) -> [(range: Range<Int>, folded: String)] {
        var words: [(Range<Int>, String)] = []
        TextFolding.forEachWordRange(in: text) { range, folded in
            words.append((range, String(decoding: folded, as: UTF8.self)))
            return true
        }
        return words
    }

    /// ASCII text takes a path of its own: the same words and ranges as the general path, whatever the byte limit.
    /// (Text that ends in a non-ASCII word takes the general path; the words before it are the same.)
    @Test func asciiTextGivesTheWordsOfTheGeneralPath() {
        var generator = SeededGenerator(seed: 2_511)
        let pieces = ["ab", "Cd", "x", "9", "Z9z", " ", "  ", "-", ".", "\t", "\u{1}", "\u{7F}", "_", "'", "ALLCAPS", "under_score"]
        func words(_ text: String, maxBytes: Int) -> [String] {
            var found: [String] = []
            TextFolding.forEachWordRange(in: text, maxBytes: maxBytes) { range, folded in
                found.append("\(range):\(String(decoding: folded, as: UTF8.self))")
                return true
            }
            return found
        }
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let maxBytes = Bool.random(using: &generator) ? Int.max : Int.random(in: 0...(text.utf8.count + 1), using: &generator)
            let ascii = words(text, maxBytes: maxBytes)
            // A limit that reaches the end of the text reads all of it; the general path then also reads the final "e".
            let general = maxBytes >= text.utf8.count ? Array(words(text + " é", maxBytes: .max).dropLast()) : words(text + " é", maxBytes: maxBytes)
            #expect(ascii == general, "\(text.debugDescription), limit \(maxBytes)")
        }
    }

    /// Under a byte limit, exactly the words that end within it are read (one that ends at the limit included, one the
    /// limit cuts not), on both paths: the words of the whole text, filtered by where their UTF-8 ends.
    @Test func aByteLimitReadsTheWordsThatEndWithinIt() {
        var generator = SeededGenerator(seed: 1_127)
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            let maxBytes = Int.random(in: 0...(text.utf8.count + 1), using: &generator)
            let expected = Self.words(of: text).filter { word in
                let end = String.Index(utf16Offset: word.range.upperBound, in: text)
                return text.utf8.distance(from: text.utf8.startIndex, to: end) <= maxBytes
            }.map(\.folded)
            var read: [String] = []
            TextFolding.forEachWordRange(in: text, maxBytes: maxBytes) { _, folded in
                read.append(String(decoding: folded, as: UTF8.self))
                return true
            }
            #expect(read == expected, "\(text.debugDescription), limit \(maxBytes)")
        }
        // ASCII, at the edges: "cd" ends at byte 5, the limit cuts "ef" at 7.
        for (limit, words) in [(4, ["ab"]), (5, ["ab", "cd"]), (6, ["ab", "cd"]), (7, ["ab", "cd"]), (8, ["ab", "cd", "ef"])] {
            var read: [String] = []
            TextFolding.forEachWordRange(in: "ab cd ef", maxBytes: limit) { _, folded in
                read.append(String(decoding: folded, as: UTF8.self))
                return true
            }
            #expect(read == words, "limit \(limit)")
        }
    }

    /// Checks `ranges` against `text` and the query `terms`.
    static func check(_ ranges: [TextRange], in text: String, terms: SearchTerms, comment: String) {
        let utf16 = Array(text.utf16)
        var previousEnd = 0
        for range in ranges {
            #expect(range.start >= previousEnd && range.start < range.end && range.end <= utf16.count, "\(range) in \(comment)")
            guard range.start >= previousEnd, range.start < range.end, range.end <= utf16.count else { return }
            #expect(!UTF16.isTrailSurrogate(utf16[range.start]), "\(range) starts inside a pair: \(comment)")
            #expect(range.end == utf16.count || !UTF16.isTrailSurrogate(utf16[range.end]), "\(range) ends inside a pair: \(comment)")
            let slice = String(decoding: utf16[range.start..<range.end], as: UTF16.self)
            let folded = words(of: slice).map(\.folded)
            #expect(folded.count == 1 && terms.words.contains { folded[0].hasPrefix($0) }, "'\(slice)' is not a matching word: \(comment)")
            previousEnd = range.end
        }
    }

    @Test func everyRangeOfEveryFieldIsAWholeMatchingWord() throws {
        var generator = SeededGenerator(seed: 26)
        for round in 0..<3_000 {
            let text = (0..<Int.random(in: 1...40, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            let textWords = Self.words(of: text)
            var query = (0..<Int.random(in: 1...3, using: &generator)).compactMap { _ -> String? in
                guard let word = textWords.randomElement(using: &generator)?.folded else { return nil }
                return String(word.prefix(Int.random(in: 1...max(1, word.count), using: &generator)))
            }
            query.append(Self.pieces.randomElement(using: &generator)!)
            let terms = SearchTerms(query.joined(separator: " "))
            let highlighter = SearchHighlighter(terms: terms)
            let hit = SearchHit(SearchableItem(
                uniqueIdentifier: "x", domainIdentifier: "com.x", title: text,
                contentDescription: String(repeating: text + " ", count: Int.random(in: 1...5, using: &generator)), keywords: [text],
                authorNames: [text]
            ), score: 0)
            let comment = "round \(round): \(text.debugDescription) for \(query)"
            let highlighted = highlighter.highlighted(hit)
            let highlights = try #require(highlighted.highlights)
            Self.check(highlights.title, in: text, terms: terms, comment: comment)
            Self.check(highlights.keywords[0], in: text, terms: terms, comment: comment)
            Self.check(highlights.authorNames[0], in: text, terms: terms, comment: comment)
            let matching = textWords.filter { word in terms.words.contains { word.folded.hasPrefix($0) } }
            #expect(highlights.title.count == matching.count, "a matching word without its range: \(comment)")
            let snippet = try #require(highlighted.snippet)
            #expect(snippet.text.utf16.count <= SearchHighlighter.maxSnippetLength + 2, "\(comment)")
            Self.check(snippet.highlights, in: snippet.text, terms: terms, comment: "snippet of " + comment)
        }
    }

    static func hit(description: String) -> SearchHit {
        SearchHit(SearchableItem(uniqueIdentifier: "x", domainIdentifier: "com.x", contentDescription: description), score: 0)
    }

    @Test func aDescriptionIsReadOnlyToItsScannedLengthAndTheSnippetSaysItWasCut() throws {
        let highlighter = SearchHighlighter(terms: SearchTerms("needle"))
        let hit = highlighter.highlighted(Self.hit(description: String(repeating: "hay ", count: 10_000) + "needle"))
        let snippet = try #require(hit.snippet)
        #expect(snippet.highlights.isEmpty && hit.highlights?.contentDescription == [])
        #expect(snippet.text.hasPrefix("hay hay") && snippet.text.hasSuffix("hay…"))
        #expect(snippet.text.split(separator: " ").count == SearchHighlighter.snippetWords)
    }

    /// A word the scan limit cuts is not a word: no part of it is marked, and no accent is cut from its letter.
    @Test func aWordCutByTheScanLimitIsNotHighlighted() throws {
        let limit = SearchHighlighter.scannedDescriptionBytes
        for (description, query) in [
            (String(repeating: "x", count: limit - 3) + " cheetahstraddle more", "ch"),
            (String(repeating: "y", count: limit - 2) + " e\u{301}\u{301}\u{301}tude", "e"),
        ] {
            let hit = SearchHighlighter(terms: SearchTerms(query)).highlighted(Self.hit(description: description))
            #expect(hit.highlights?.contentDescription == [], "\(query)")
            #expect(hit.snippet?.highlights == [], "\(query)")
        }
    }

    /// Long words and words that are not there keep the snippet short: never the whole 64 KiB.
    @Test func aSnippetStaysShortWhateverTheDescriptionHolds() throws {
        let highlighter = SearchHighlighter(terms: SearchTerms("long"))
        for description in [String(repeating: "😀", count: 16_000), "long" + String(repeating: "a", count: 60_000), "long" + String(repeating: "a", count: 10_000),
                            String(repeating: "word ", count: 10) + "long" + String(repeating: "b", count: 5_000)] {
            let snippet = try #require(highlighter.highlighted(Self.hit(description: description)).snippet)
            #expect(snippet.text.utf16.count <= SearchHighlighter.maxSnippetLength + 2, "\(snippet.text.prefix(40))")
            #expect(snippet.text.hasSuffix("…"))
            for range in snippet.highlights {
                #expect(range.start >= 0 && range.end <= snippet.text.utf16.count)
            }
        }
        let longWord = try #require(highlighter.highlighted(Self.hit(description: "long" + String(repeating: "a", count: 10_000))).snippet)
        #expect(longWord.highlights == [TextRange(start: 0, end: SearchHighlighter.maxSnippetLength)], "the long word's range is cut with it")
    }
}
