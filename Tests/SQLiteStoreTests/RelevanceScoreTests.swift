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

    /// A description counts its weight (1) for a whole word, 0.8 for a prefix or a correction, divided by its length
    /// (``RelevanceScore``), read from the words the candidate folded when it was made.
    @Test(arguments: [
        ("beta", [], 1.0, 0, 1),
        ("BÉT", [], 0.8, 0, 0),
        ("alp gam", [], 1.6, 0, 0),
        ("gamma alpha", [], 2.0, 0, 2),
        ("betz", [TypoCorrection(word: "beta", typos: 1)], 0.8, 1, 0),
        ("betz", [TypoCorrection(word: "bet", typos: 2)], 0.5, 2, 0),
        ("betz", [TypoCorrection(word: "gamma", typos: 2), TypoCorrection(word: "beta", typos: 1)], 0.8, 1, 0),
        ("zeta", [], 0.5, 0, 0),
    ] as [(String, [TypoCorrection], Double, Int, Int)])
    func aDescriptionScoresItsMatches(typed: String, corrections: [TypoCorrection], matches: Double, typos: Int, wholeWords: Int) {
        var terms = SearchTerms(typed)
        if !corrections.isEmpty { terms = terms.withCorrections([corrections]) }
        let candidate = CandidateRanking.Candidate(
            id: 1, title: "Other", displayName: nil, keywords: nil, authorNames: nil, contentDescription: "Alpha, beta and gamma.", rankingHint: nil,
            page: "p"
        )
        let result = RelevanceScore(terms: terms).score(candidate)
        // Four words: 1 / (1 + 0.05 × 3). A term the text does not hold counts half a description match, undivided.
        let lengthFactor = 1 / 1.15
        let expected = matches == 0.5 ? 0.5 : matches * lengthFactor
        #expect(abs(result.score - expected) < 1e-9, "\(typed): \(result.score)")
        #expect(result.typos == typos && result.wholeWords == wholeWords)
    }
}
