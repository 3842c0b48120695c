/// An indexed word a typed word stands for, and the typos between them.
public struct TypoCorrection: Sendable, Hashable {
    /// The indexed word, folded.
    public var word: String
    /// 1 or 2.
    public var typos: Int
}

/// Finds the indexed words the typed words of a search may stand for (``TypoTolerance``), in two steps so that a
/// store reads its vocabulary its own way: ``lookups`` name the ranges of indexed words to read, then
/// ``corrected(_:vocabulary:)`` keeps the words of those ranges close enough to what was typed.
package struct TypoCorrector {
    /// One range of the vocabulary to read: the indexed words from `lower` (inclusive) to `upper` (exclusive) in
    /// byte order, of `minimumLetters` letters or more, at most ``TypoTolerance/maxWordsRead`` of them.
    package struct Lookup: Sendable, Hashable {
        package var lower: String
        package var upper: String
        package var minimumLetters: Int
        /// The typed word's position in ``SearchTerms/words``.
        var wordIndex: Int
        var allowedTypos: Int
    }

    /// The ranges to read, one per typed word that may hold a typo (at most ``TypoTolerance/maxWordsCorrected``).
    package let lookups: [Lookup]

    package init(terms: SearchTerms, tolerance: TypoTolerance) {
        var lookups: [Lookup] = []
        for (index, word) in terms.words.enumerated() where lookups.count < TypoTolerance.maxWordsCorrected {
            let allowed = tolerance.allowedTypos(in: word)
            guard allowed > 0, let first = word.unicodeScalars.first, let next = Self.scalar(after: first) else { continue }
            lookups.append(Lookup(
                lower: String(first), upper: String(next), minimumLetters: word.unicodeScalars.count - allowed,
                wordIndex: index, allowedTypos: allowed
            ))
        }
        self.lookups = lookups
    }

    /// `terms` with the corrections of each typed word, from `vocabulary` (the words read for each lookup, in order).
    package func corrected(_ terms: SearchTerms, vocabulary: [[String]]) -> SearchTerms {
        var corrections = terms.corrections
        for (lookup, words) in zip(lookups, vocabulary) {
            let typed = Array(terms.words[lookup.wordIndex].unicodeScalars)
            var found: [(correction: TypoCorrection, letters: Int)] = []
            for word in words.prefix(TypoTolerance.maxWordsRead) {
                let letters = Array(word.unicodeScalars)
                // 0 typos: the typed word starts this word, which it matches already.
                guard let typos = TypoDistance.typos(from: typed, toStartOf: letters, atMost: lookup.allowedTypos), typos > 0 else { continue }
                found.append((TypoCorrection(word: word, typos: typos), letters.count))
            }
            // Fewest typos, then shortest, then in byte order (as the stores read words): the same on every store.
            found.sort { left, right in
                if (left.correction.typos, left.letters) != (right.correction.typos, right.letters) {
                    return (left.correction.typos, left.letters) < (right.correction.typos, right.letters)
                }
                return left.correction.word.utf8.lexicographicallyPrecedes(right.correction.word.utf8)
            }
            corrections[lookup.wordIndex] = found.prefix(TypoTolerance.maxCorrectionsPerWord).map(\.correction)
        }
        return terms.withCorrections(corrections)
    }

    /// The character after `scalar` in code point order, skipping the surrogates.
    private static func scalar(after scalar: Unicode.Scalar) -> Unicode.Scalar? {
        scalar.value == 0xD7FF ? Unicode.Scalar(0xE000) : Unicode.Scalar(scalar.value + 1)
    }
}
