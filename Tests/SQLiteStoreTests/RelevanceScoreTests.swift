@testable import Indexing
import Testing

/// What the scorer makes of a candidate's fields, in cases the stores' ranking tests do not reach.
@Suite("Scoring a candidate")
struct RelevanceScoreTests {
    /// Corrections are told apart by their bytes, as the index tells its words apart: a Hangul syllable and the same
    /// syllable as conjoining jamo are two words, though `String` holds them equal.
    @Test func correctionsThatStringHoldsEqualAreTwoWords() {
        let syllable = "a\u{AC00}", jamo = "a\u{1100}\u{1161}"
        #expect(syllable == jamo, "the case at hand: two canonically equivalent spellings")
        let terms = SearchTerms("ab").withCorrections([[TypoCorrection(word: syllable, typos: 1), TypoCorrection(word: jamo, typos: 1)]])
        let scorer = RelevanceScore(terms: terms)
        for title in [syllable, jamo] {
            let candidate = CandidateRanking.Candidate(
                id: 1, title: title, displayName: nil, keywords: nil, authorNames: nil, contentDescription: nil, rankingHint: nil, page: "p"
            )
            let result = scorer.score(candidate)
            #expect(result.score == 20 * 0.8, "a one-word title holding a correction: \(title.unicodeScalars.map(\.value))")
            #expect(result.typos == 1)
        }
    }
}
