@testable import Indexing
import Testing

/// The typo distance against a plain recursive definition, and the corrector's caps against hostile queries.
@Suite("Correcting typed words")
struct TypoCorrectorTests {
    /// Optimal string alignment, written from its definition: the oracle.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1) }
            }
        }
        return table[a.count][b.count]
    }

    @Test func theDistanceToAWordsStartIsTheFewestEditsToAnyOfItsStarts() {
        var generator = SystemRandomNumberGenerator()
        let letters: [Character] = ["a", "b", "c", "é"]
        for _ in 0..<3_000 {
            let typed = (0..<Int.random(in: 1...7, using: &generator)).map { _ in letters.randomElement(using: &generator)! }
            let word = (0..<Int.random(in: 0...9, using: &generator)).map { _ in letters.randomElement(using: &generator)! }
            let expected = (0...word.count).map { Self.distance(typed, Array(word[..<$0])) }.min()!
            for limit in 0...2 {
                let found = TypoDistance.typos(
                    from: String(typed).unicodeScalars.map { $0 }, toStartOf: String(word).unicodeScalars.map { $0 }, atMost: limit
                )
                #expect(found == (expected <= limit ? expected : nil), "\(String(typed)) → \(String(word)), limit \(limit)")
            }
        }
    }

    @Test func wordsLongEnoughAreLookedUpByTheirFirstLetter() {
        let corrector = TypoCorrector(terms: SearchTerms("a livriason 4.4.0 jekyl délais"), tolerance: .standard)
        #expect(corrector.lookups.map(\.lower) == ["l", "j", "d"])
        #expect(corrector.lookups.map(\.upper) == ["m", "k", "e"])
        #expect(corrector.lookups.map(\.minimumLetters) == [7, 4, 5])
    }

    /// 200 long misspelt words, each near thousands of indexed words: at most 4 words are looked up, each read
    /// range is cut, and each word keeps at most 10 corrections, the closest.
    @Test func correctionsAreBoundedWhateverIsTyped() {
        /// "lettre" and `number` written in letters: a word without digits.
        func word(_ number: Int) -> String {
            "lettre" + String(number, radix: 26).unicodeScalars.map { scalar -> String in
                let digit = Int(String(scalar), radix: 26)!
                return String(UnicodeScalar(UInt8(97 + digit)))
            }.joined()
        }
        let withDigits = SearchTerms((0..<200).map { "lettrezz\($0)x" }.joined(separator: " "))
        #expect(withDigits.words.count == SearchTerms.maxTerms)
        #expect(TypoCorrector(terms: withDigits, tolerance: .standard).lookups.isEmpty, "words with digits are matched as typed")
        #expect(TypoCorrector(terms: SearchTerms(String(repeating: "a b ", count: 500)), tolerance: .standard).lookups.isEmpty)

        let misspelt = SearchTerms((0..<200).map { word($0 * 7) + "q" }.joined(separator: " "))
        let corrector = TypoCorrector(terms: misspelt, tolerance: .standard)
        #expect(corrector.lookups.count == TypoTolerance.maxWordsCorrected)
        let vocabulary = (0..<50_000).map(word).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let corrected = corrector.corrected(misspelt, vocabulary: Array(repeating: vocabulary, count: corrector.lookups.count))
        #expect(corrected.corrections.prefix(TypoTolerance.maxWordsCorrected).allSatisfy { $0.count == TypoTolerance.maxCorrectionsPerWord })
        #expect(corrected.corrections.dropFirst(TypoTolerance.maxWordsCorrected).allSatisfy { $0.isEmpty })
        #expect(corrected.corrections.joined().allSatisfy { $0.typos == 1 }, "the closest kept: one typo (the q) for each")
    }

    @Test func theClosestCorrectionsAreKeptFirst() {
        let terms = SearchTerms("chocolatte")
        let corrector = TypoCorrector(terms: terms, tolerance: .standard)
        let corrected = corrector.corrected(terms, vocabulary: [["chocolat", "chocolate", "chocolats", "chocolatte", "cholera"]])
        #expect(corrected.corrections[0] == [
            TypoCorrection(word: "chocolate", typos: 1), TypoCorrection(word: "chocolat", typos: 2), TypoCorrection(word: "chocolats", typos: 2),
        ])
        #expect(corrected.match == .any([.prefix("chocolatte"), .whole("chocolate"), .whole("chocolat"), .whole("chocolats")]))
    }
}
