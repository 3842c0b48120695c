import Foundation
import FuzzSupport
import Indexing
import PluginAPI
import SchedulerService
import Testing

/// `GET /search`'s hand-written JSON against `JSONEncoder` with the API's options: the same bytes for every shape of
/// results, hostile text in every field included, so clients see no change but the speed.
@Suite("Search results as JSON")
struct SearchResultsJSONTests {
    @Test("the same bytes as JSONEncoder for 2,000 random results, hostile text, dates and numbers included")
    func sameBytesAsJSONEncoder() throws {
        var random = SeededGenerator(seed: 25)
        let encoder = JSONResponse.encoder()
        for _ in 0..<2_000 {
            let results = Self.results(&random)
            let written = try #require(SearchResultsJSON.encode(results))
            let expected = try encoder.encode(results)
            #expect(written == Array(expected), "\(String(decoding: written, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test("every control character, quote, backslash and slash, and text beyond ASCII, escaped as JSONEncoder escapes them")
    func everyCharacterThatNeedsEscaping() throws {
        let text = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init))) + "/\\\"é\u{301}\u{2028}\u{2029}\u{FEFF}😀\u{10FFFF}"
        var hit = SearchHit(SearchableItem(uniqueIdentifier: text, domainIdentifier: text, title: text, expirationDate: nil), score: 1)
        hit.keywords = [text, "", text]
        let results = SearchResults(total: 1, totalIsExact: true, hits: [hit])
        let written = try #require(SearchResultsJSON.encode(results))
        #expect(written == Array(try JSONResponse.encoder().encode(results)))
        // And what a client parses back is the text itself.
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let parsed = try decoder.decode(SearchResults.self, from: Data(written))
        #expect(parsed.hits.first?.title == text)
        #expect(parsed.hits.first?.keywords == [text, "", text])
    }

    @Test("a score with no JSON form is left to JSONEncoder, which refuses it (a 500, as before)")
    func aScoreThatIsNotFinite() throws {
        let hit = SearchHit(SearchableItem(uniqueIdentifier: "a", domainIdentifier: "d"), score: .nan)
        #expect(SearchResultsJSON.encode(SearchResults(total: 1, totalIsExact: true, hits: [hit])) == nil)
    }

    /// Results of random shape: 0–4 hits, every optional field present or not, facets or not.
    static func results(_ random: inout SeededGenerator) -> SearchResults {
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        func number(_ upTo: Int) -> Int { Int(random.next() % UInt64(upTo)) }
        let alphabet: [String] = ["a", "Z", "0", " ", "/", "\\", "\"", "\n", "\t", "\r", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "\u{8}", "\u{C}",
                                  "é", "e\u{301}", "\u{2028}", "😀", "中", "\u{FFFF}", "<", "&", "'", "_", "."]
        func text() -> String { (0..<number(12)).map { _ in alphabet[number(alphabet.count)] }.joined() }
        func optionalText() -> String? { chance(70) ? text() : nil }
        func date() -> Date? {
            guard chance(70) else { return nil }
            // Whole seconds from 1970 to 9999 are written digit by digit, the others by Foundation: both, and their edges.
            let wholeSeconds: [Double] = [0, 951_782_400, 4_107_542_400, 253_402_300_799, 253_402_300_800, 253_402_300_801, -1, 1e15]
            return [Date.distantPast, .distantFuture, Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1.5),
                    Date(timeIntervalSince1970: Double(random.next() % 4_000_000_000) + Double(number(1000)) / 1000),
                    Date(timeIntervalSince1970: Double(random.next() % 253_402_300_800)),
                    Date(timeIntervalSince1970: wholeSeconds[number(wholeSeconds.count)])][number(7)]
        }
        func ranges() -> [TextRange] { (0..<number(3)).map { _ in TextRange(start: number(100), end: number(100) + 100) } }
        let scores: [Double] = [0, -0.0, 1, 0.5, 1.0 / 3, 1e-7, 1e20, 123_456.789, 2.5e300, .leastNonzeroMagnitude, Double(number(1_000_000)) / 7]
        let hits = (0..<number(5)).map { _ -> SearchHit in
            var hit = SearchHit(
                SearchableItem(uniqueIdentifier: text(), domainIdentifier: text(), title: optionalText(), expirationDate: date()), score: scores[number(scores.count)]
            )
            hit.contentType = text()
            hit.displayName = optionalText()
            hit.contentDescription = optionalText()
            hit.keywords = (0..<number(3)).map { _ in text() }
            hit.authorNames = (0..<number(3)).map { _ in text() }
            hit.contentCreationDate = date()
            hit.contentModificationDate = date()
            hit.contentURL = optionalText()
            hit.relatedUniqueIdentifier = optionalText()
            hit.thumbnailURL = optionalText()
            hit.rankingHint = chance(50) ? [number(200) - 100, Int.max, Int.min, 0, 9, 10, 99_999][number(7)] : nil
            if chance(70) {
                hit.highlights = SearchHighlights(
                    title: ranges(), displayName: ranges(), contentDescription: ranges(), keywords: hit.keywords.map { _ in ranges() },
                    authorNames: hit.authorNames.map { _ in ranges() }
                )
            }
            if chance(60) { hit.snippet = SearchSnippet(text: text(), highlights: ranges()) }
            return hit
        }
        var results = SearchResults(total: number(10_000), totalIsExact: chance(50), hits: hits)
        // Each of the two facet fields present or not on its own: the body leaves out each absent one.
        if chance(40) {
            results.facets = Dictionary(
                (0..<number(3)).map { _ in (text(), Dictionary((0..<number(4)).map { _ in (text(), number(1000)) }, uniquingKeysWith: +)) },
                uniquingKeysWith: { first, _ in first }
            )
        }
        if chance(40) { results.facetsAreExact = chance(50) }
        return results
    }
}
