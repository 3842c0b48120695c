import Indexing
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
