@testable import Indexing
import Testing

/// Which words of an item join the vocabulary that typos are corrected to, on the ASCII path and the general one alike.
@Suite("The words typos are corrected to")
struct SearchVocabularyTests {
    private func words(title: String) -> Set<String> {
        var words = Set<String>()
        SearchVocabulary.insertWords(title: title, displayName: nil, names: [], into: &words)
        return words
    }

    @Test func wordsHoldingADigitInAnyScriptAreLeftOut() {
        #expect(words(title: "Release v2 3.4 notes") == ["release", "notes"], "ASCII digits: numbers and codes match as typed")
        #expect(words(title: "Café x² ٣٤ Ⅻ naïve") == ["cafe", "naive"], "superscripts, Arabic-Indic digits and Roman numerals are numbers too")
        #expect(words(title: "été v٣") == ["ete"], "a non-ASCII digit in an otherwise ASCII word")
    }

    @Test func wordsLongerThanASearchTermAreLeftOutCountedInCharacters() {
        let longest = String(repeating: "a", count: SearchTerms.maxTermCharacters)
        #expect(words(title: longest + " " + longest + "b") == [longest], "ASCII: a byte is a character")
        let accented = String(repeating: "ж", count: SearchTerms.maxTermCharacters)
        #expect(words(title: accented + " " + accented + "ж") == [accented], "two bytes a character, still counted in characters")
    }

    @Test func everyNamedFieldGivesWords() {
        var words = Set<String>()
        SearchVocabulary.insertWords(title: nil, displayName: "Display", names: ["Keyword", "Ada Lovelace"], into: &words)
        #expect(words == ["display", "keyword", "ada", "lovelace"])
    }
}
