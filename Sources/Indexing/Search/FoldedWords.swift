import Foundation

/// A field's words as scoring reads them: folded as the index folds them (``TextFolding``), in order, each after its
/// length in UTF-8 bytes (two little-endian bytes).
///
/// A candidate keeps its fields so (``CandidateRanking/Candidate``), folded once when its row is read: a search then
/// compares the typed words with words already folded, instead of folding each field again, and looks for a typed word
/// by stepping from word to word (a length and a first byte each) instead of reading every byte.
///
/// Or numbered: each word its number in a ``WordList`` (``Varint``s), as the candidate records a store keeps beside its
/// postings hold them. Either way, the same words are read, in the same order.
struct FoldedWords {
    private let words: Words
    /// How many words.
    package let count: Int

    private enum Words {
        /// Each word's length, then its bytes.
        case packed(UnsafeBufferPointer<UInt8>)
        /// Each word's number in the list.
        case numbered(UnsafeBufferPointer<UInt8>, WordList)
    }

    /// Words as ``append(wordsOf:to:)`` wrote them.
    init(bytes: UnsafeBufferPointer<UInt8>, count: Int) {
        words = .packed(bytes)
        self.count = count
    }

    /// Words as their numbers in `vocabulary`: a number that is not one, or bytes that end no number, end the words.
    init(numbers: UnsafeBufferPointer<UInt8>, count: Int, vocabulary: WordList) {
        words = .numbered(numbers, vocabulary)
        self.count = count
    }

    /// The longest word kept: longer ones are cut (scoring reads the first ``RelevanceScore/scoredBytesPerField``
    /// bytes of a field, which fold to fewer bytes than this).
    static let maxWordBytes = Int(UInt16.max)

    /// Appends the folded words of `text` (UTF-8) to `buffer` in this form; returns how many there are.
    static func append(wordsOf text: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) -> Int {
        var count = 0
        TextFolding.forEachWord(inUTF8: text) { word in
            let length = min(word.count, maxWordBytes)
            buffer.append(UInt8(truncatingIfNeeded: length))
            buffer.append(UInt8(truncatingIfNeeded: length >> 8))
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: word.prefix(length)))
            count += 1
            return true
        }
        return count
    }

    /// Calls `body` with each word, in order, until it returns `false`.
    package func forEach(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        switch words {
        case .packed(let bytes): Self.forEach(packed: bytes, body)
        case .numbered(let numbers, let vocabulary):
            var reader = Varint.Reader(numbers)
            while let number = reader.next(), number < UInt64(vocabulary.count) {
                guard body(vocabulary[Int(number)]) else { return }
            }
        }
    }

    private static func forEach(packed bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        guard var word = bytes.baseAddress else { return }
        let end = word + bytes.count
        while word < end {
            let length = Int(word[0]) | Int(word[1]) << 8
            guard body(UnsafeBufferPointer(start: word + 2, count: length)) else { return }
            word += 2 + length
        }
    }

    /// How `term` (folded, as ``TextFolding`` gives words) is held: whether some word starts with it, and whether some
    /// word is it.
    package func find(_ term: UnsafeBufferPointer<UInt8>) -> (startsAWord: Bool, isAWord: Bool) {
        var startsAWord = false
        var isAWord = false
        forEach { word in
            guard TextFolding.word(word, startsWith: term) else { return true }
            startsAWord = true
            isAWord = word.count == term.count
            return !isAWord
        }
        return (startsAWord, isAWord)
    }
}
