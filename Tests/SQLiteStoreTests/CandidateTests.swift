@testable import Indexing
import Testing

/// A candidate keeps its five fields' folded words in one buffer (``CandidateRanking/Candidate``): each field reads back
/// as the words the index would fold it into.
@Suite("A candidate's fields")
struct CandidateTests {
    /// The folded words of `text`'s first ``RelevanceScore/scoredBytesPerField`` bytes, as the walk over its words
    /// gives them: what scoring reads.
    static func scoredWords(of text: String) -> [[UInt8]] {
        var words: [[UInt8]] = []
        Array(text.utf8.prefix(RelevanceScore.scoredBytesPerField)).withUnsafeBufferPointer { text in
            TextFolding.forEachWord(inUTF8: text) { words.append(Array($0)); return true }
        }
        return words
    }

    /// The words `candidate` holds for `column`, `nil` when it does not have the field.
    static func words(of candidate: CandidateRanking.Candidate, _ column: SearchColumn) -> [[UInt8]]? {
        candidate.withFields { fields in
            fields[column].map { words in
                var all: [[UInt8]] = []
                words.forEach { all.append(Array($0)); return true }
                #expect(all.count == words.count, "the count kept is the words' count")
                return all
            }
        }
    }

    @Test func eachFieldReadsBackAsItsWordsWhateverItsNeighbours() {
        let texts: [String?] = ["Délais de LIVRAISON", nil, "", "[\"a\",\"b\"]", String(repeating: "가나 ", count: 3_000)]
        let candidate = CandidateRanking.Candidate(
            id: 7, title: texts[0], displayName: texts[1], keywords: texts[2], authorNames: texts[3], contentDescription: texts[4], rankingHint: 3,
            page: "page"
        )
        for column in SearchColumn.allCases {
            #expect(Self.words(of: candidate, column) == texts[column.position].map(Self.scoredWords), "\(column)")
        }
        #expect(Self.words(of: candidate, .title) == ["delais", "de", "livraison"].map { Array($0.utf8) })
        #expect(Self.words(of: candidate, .displayName) == nil && Self.words(of: candidate, .keywords) == [], "an absent field is not an empty one")
    }

    /// Only the words of a field's first ``RelevanceScore/scoredBytesPerField`` bytes are kept: a character the limit
    /// cuts reads as U+FFFD (a separator), the word it cuts as far as it goes.
    @Test func aLongFieldKeepsTheWordsOfItsScoredBytes() {
        let long = String(repeating: "word ", count: 819) + "é" + " Tail end"
        #expect(long.utf8.count > RelevanceScore.scoredBytesPerField && Array(long.utf8)[RelevanceScore.scoredBytesPerField - 1] == 0xC3)
        let candidate = CandidateRanking.Candidate(
            id: 1, title: nil, displayName: nil, keywords: nil, authorNames: nil, contentDescription: long, rankingHint: nil, page: "p"
        )
        let words = Self.words(of: candidate, .contentDescription)
        #expect(words == Self.scoredWords(of: long) && words?.count == 819 && words?.last == Array("word".utf8))
    }

    @Test func bothWaysOfMakingOneAgree() {
        let texts: [String?] = ["title", nil, "ß", "", "words and more"]
        let buffers = texts.map { $0.map { text in UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count) } }
        defer { buffers.forEach { $0?.deallocate() } }
        for (buffer, text) in zip(buffers, texts) { if let buffer, let text { _ = buffer.initialize(from: text.utf8) } }
        let fromBytes = CandidateRanking.Candidate(id: 1, rankingHint: nil, page: "p") { buffers[$0.position].map(UnsafeBufferPointer.init) }
        let fromStrings = CandidateRanking.Candidate(
            id: 1, title: texts[0], displayName: texts[1], keywords: texts[2], authorNames: texts[3], contentDescription: texts[4], rankingHint: nil,
            page: "p"
        )
        for column in SearchColumn.allCases {
            #expect(Self.words(of: fromBytes, column) == Self.words(of: fromStrings, column), "\(column)")
            #expect(Self.words(of: fromBytes, column) == texts[column.position].map(Self.scoredWords), "\(column)")
        }
        #expect(fromBytes.packedBytes == fromStrings.packedBytes)
    }

    @Test func columnsArePlacedInTheirDeclaredOrder() {
        #expect(SearchColumn.allCases.map(\.position) == Array(SearchColumn.allCases.indices))
    }
}
