@testable import Indexing
import Testing

/// A candidate keeps its five fields in one buffer (``CandidateRanking/Candidate``): each reads back as given.
@Suite("A candidate's fields")
struct CandidateTests {
    @Test func eachFieldReadsBackAsGivenWhateverItsNeighbours() {
        let texts: [String?] = ["Délais de livraison", nil, "", "[\"a\",\"b\"]", String(repeating: "가나 ", count: 3_000)]
        let candidate = CandidateRanking.Candidate(
            id: 7, title: texts[0], displayName: texts[1], keywords: texts[2], authorNames: texts[3], contentDescription: texts[4], rankingHint: 3,
            page: "page"
        )
        for column in SearchColumn.allCases {
            #expect(candidate.text(column) == texts[column.position], "\(column)")
        }
        #expect(candidate.text(.displayName) == nil && candidate.text(.keywords) == "", "an absent field is not an empty one")
        #expect(candidate.packedBytes == 5 * 4 + texts.reduce(0) { $0 + ($1?.utf8.count ?? 0) })
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
            #expect(fromBytes.text(column) == texts[column.position], "\(column)")
        }
        #expect(fromBytes.packedBytes == fromStrings.packedBytes)
    }

    @Test func columnsArePlacedInTheirDeclaredOrder() {
        #expect(SearchColumn.allCases.map(\.position) == Array(SearchColumn.allCases.indices))
    }
}
