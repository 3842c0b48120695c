import FuzzSupport
@testable import Indexing
import Testing

/// A candidate's folded words (``FoldedWords``) hold what the walk over the text's words gives, and finding a typed
/// word in them finds what the walk finds: scoring reads them instead of folding the text.
@Suite("Folded words")
struct FoldedWordsTests {
    /// Pieces texts and terms are made of: ASCII in both cases, digits, punctuation, accents, a letter that folds to
    /// two bytes, CJK, emoji, a NUL, and bytes that are not UTF-8.
    static let pieces: [[UInt8]] = [
        "a", "b", "ab", "abc", "Abc", "ABC", "x", "9", "42", " ", "  ", ".", "-", "_", "'", "é", "É", "è", "ß", "ı", "İ", "ﬁ",
        "日本", "語", "😀", "\u{0301}", "\t", "\n",
    ].map { Array($0.utf8) } + [[0], [0xFF], [0xC3], [0xE2, 0x82]]

    /// What the walk over the words of `text` finds for `term`: some word starting with it, some word equal to it; and
    /// how many words.
    static func walk(_ text: [UInt8], term: [UInt8]) -> (startsAWord: Bool, isAWord: Bool, count: Int) {
        var result = (startsAWord: false, isAWord: false, count: 0)
        text.withUnsafeBufferPointer { text in
            TextFolding.forEachWord(inUTF8: text) { word in
                result.count += 1
                if word.starts(with: term) { result.startsAWord = true }
                if word.elementsEqual(term) { result.isAWord = true }
                return true
            }
        }
        return result
    }

    /// The folded words of `text`, as a term is typed: folded.
    static func words(of text: [UInt8]) -> [[UInt8]] {
        var words: [[UInt8]] = []
        text.withUnsafeBufferPointer { text in
            TextFolding.forEachWord(inUTF8: text) { words.append(Array($0)); return true }
        }
        return words
    }

    @Test func findsWhatTheWalkFindsForWordsTheirPrefixesAndOthers() {
        var random = SeededGenerator(seed: 25)
        for round in 0..<3_000 {
            let text = (0..<Int.random(in: 0...24, using: &random)).flatMap { _ in Self.pieces.randomElement(using: &random)! }
            let words = Self.words(of: text)
            var terms: [[UInt8]] = words + words.map { Array($0.prefix(Int.random(in: 1...max(1, $0.count), using: &random))) }
            terms += (0..<4).map { _ in Self.words(of: (0..<3).flatMap { _ in Self.pieces.randomElement(using: &random)! }).first ?? [0x61] }
            terms += [[0x61, 0x62, 0x63, 0x64], [0x7A]]
            var folded: [UInt8] = []
            let count = text.withUnsafeBufferPointer { FoldedWords.append(wordsOf: $0, to: &folded) }
            folded.withUnsafeBufferPointer { bytes in
                let foldedWords = FoldedWords(bytes: bytes, count: count)
                var walked: [[UInt8]] = []
                foldedWords.forEach { walked.append(Array($0)); return true }
                #expect(walked == words, "round \(round): the words read back in order")
                for term in terms {
                    let expected = Self.walk(text, term: term)
                    let found = term.withUnsafeBufferPointer { foldedWords.find($0) }
                    #expect(found.startsAWord == expected.startsAWord && found.isAWord == expected.isAWord, "round \(round): \(text) \(term)")
                    #expect(count == expected.count, "round \(round): \(text)")
                }
            }
        }
    }

    @Test func aTermThatCannotBeAWordIsNeverFound() {
        var folded: [UInt8] = []
        let count = Array("one two".utf8).withUnsafeBufferPointer { FoldedWords.append(wordsOf: $0, to: &folded) }
        folded.withUnsafeBufferPointer { bytes in
            let words = FoldedWords(bytes: bytes, count: count)
            for term: [UInt8] in [[0], [0, 0x6F], [0x6F, 0], [0x6F, 0x6E, 0x65, 0], [0x6F, 0x6E, 0x65, 0x20]] {
                let found = term.withUnsafeBufferPointer { words.find($0) }
                #expect(!found.startsAWord && !found.isAWord, "\(term)")
            }
        }
    }

    @Test func anEmptyTextHoldsNoWord() {
        var folded: [UInt8] = []
        let count = [UInt8]().withUnsafeBufferPointer { FoldedWords.append(wordsOf: $0, to: &folded) }
        #expect(count == 0 && folded.isEmpty)
        folded.withUnsafeBufferPointer { bytes in
            let found = Array("a".utf8).withUnsafeBufferPointer { FoldedWords(bytes: bytes, count: count).find($0) }
            #expect(!found.startsAWord && !found.isAWord)
        }
    }

    /// Each word keeps its length in two bytes: a word longer than 255 bytes reads back whole.
    @Test func aLongWordReadsBackWhole() {
        let word = String(repeating: "ab", count: 1_000)
        var folded: [UInt8] = []
        let count = Array("x \(word) y".utf8).withUnsafeBufferPointer { FoldedWords.append(wordsOf: $0, to: &folded) }
        folded.withUnsafeBufferPointer { bytes in
            var words: [String] = []
            FoldedWords(bytes: bytes, count: count).forEach { words.append(String(decoding: $0, as: UTF8.self)); return true }
            #expect(words == ["x", word, "y"] && count == 3)
        }
    }
}
