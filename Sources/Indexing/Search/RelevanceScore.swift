import Foundation

/// How well an item matches the search terms; higher is better.
///
/// Each term counts the weight of the best field it matches (``SearchColumn/weight``), times 1 for a whole
/// word or 0.8 for a prefix, divided by `1 + 0.05 × (words in the field − 1)` so a short field beats a long
/// one. A term found in no field (the index matched it beyond the scored text) counts as half a description
/// match. The sum is lifted by the ranking hint: `× (1 + hint / 100)`.
///
/// A word matched through a typo correction (``SearchTerms/corrections``) counts as a prefix would, and the
/// item's typos are counted apart: the fewest each term needed, summed; ranking puts fewer typos first. So are the
/// typed sequences (``SearchTerms/sequences``, `3.4.0`) a field holds word after word: ranking puts more first; and
/// whether the title is exactly the typed words: ranking puts such an item first among those with as few typos; and
/// how many terms are whole words where they score best: ranking puts more first, before the score.
/// Typed words an item matches only through a synonym phrase (``SearchTerms/synonyms``, every word of the phrase found)
/// score as prefixes in the phrase's weakest field, and count as one typo.
package struct RelevanceScore {
    /// What ranking orders by.
    package struct Result {
        package var score: Double
        /// The fewest typos each term needed, summed.
        package var typos: Int
        /// The synonym spans matched only through a phrase of their group.
        package var synonyms: Int
        /// How many of the typed sequences some field holds, word after word (the last word as a prefix).
        package var sequences: Int
        /// Whether the title's words are the typed words, whole and in order ("Jekyll" for `jekyll`).
        package var titleIsExact: Bool
        /// How many terms the field where they score best holds as a whole word, not only as the prefix of a longer one.
        package var wholeWords: Int
    }

    /// Only this much of each field is read for scoring.
    static let scoredBytesPerField = 4096

    private let terms: [[UInt8]]
    /// The corrections of each term: the word, and the typos it stands for (a few per term, compared byte by byte
    /// without building an array per word read).
    private let corrections: [[(word: [UInt8], typos: Int)]]
    private let sequences: [[[UInt8]]]
    /// The longest sequence's words.
    private let longestSequence: Int
    /// The synonym spans: the terms they cover, and the phrases that may stand for them.
    private let synonyms: [(terms: Range<Int>, alternatives: [[[UInt8]]])]

    package init(terms: SearchTerms) {
        self.terms = terms.words.map { Array($0.utf8) }
        corrections = terms.corrections.map { corrections in
            Dictionary(corrections.map { (Array($0.word.utf8), $0.typos) }, uniquingKeysWith: min).map { (word: $0.key, typos: $0.value) }
        }
        sequences = terms.sequences.map { $0.map { Array($0.utf8) } }
        longestSequence = sequences.map(\.count).max() ?? 0
        synonyms = terms.synonyms.map { span in (span.words, span.alternatives.map { $0.map { Array($0.utf8) } }) }
    }

    /// The score of an item whose searchable fields are `fields`, the typos its match needed and the sequences it holds.
    package func score(fields: [(SearchColumn, String?)], rankingHint: Int?) -> Result {
        var best = [Double](repeating: SearchColumn.contentDescription.weight * 0.5, count: terms.count)
        var matches = [Double](repeating: 0, count: terms.count)
        // A term not found in the scored text (the index matched it further on) counts its fewest typos.
        var typos = corrections.map { $0.map(\.typos).min() ?? 0 }
        var typosSeen = [Bool](repeating: false, count: terms.count)
        var sequenceFound = [Bool](repeating: false, count: sequences.count)
        var titleIsExact = false
        /// Whether each term's best match so far (of those found, whatever the floor of `best`) is a whole word.
        var whole = [Bool](repeating: false, count: terms.count)
        var matchedBest = [Double](repeating: 0, count: terms.count)
        /// For each word of each synonym phrase, the best weight of a field holding it (0: none), and whether the
        /// field being read does.
        var phraseWordBest = synonyms.map { $0.alternatives.map { [Double](repeating: 0, count: $0.count) } }
        var phraseWordInField = phraseWordBest.map { $0.map { $0.map { _ in false } } }
        /// Whether some synonym span's typed words are not all found yet.
        func synonymPending() -> Bool { synonyms.contains { !$0.terms.allSatisfy { typosSeen[$0] } } }
        for case let (column, text?) in fields
        where best.contains(where: { $0 < column.weight }) || typos.contains(where: { $0 > 0 }) || sequenceFound.contains(false) || synonymPending() {
            // (A field counts at most its weight for a term: once every term does as well, and no term is left with
            // typos or sequence a later field could spare, it is not read.)
            var wordCount = 0
            for index in matches.indices { matches[index] = 0 }
            /// The field's last words, as many as the longest sequence holds.
            var recent: [[UInt8]] = []
            /// Whether the title's words so far are the typed words, in order.
            var titleSoFar = column == .title
            TextFolding.forEachWord(in: text.utf8.count > Self.scoredBytesPerField ? Self.prefix(of: text) : text) { word in
                wordCount += 1
                if titleSoFar { titleSoFar = wordCount <= terms.count && word.elementsEqual(terms[wordCount - 1]) }
                if longestSequence > 0 {
                    if recent.count == longestSequence { recent.removeFirst() }
                    recent.append(Array(word))
                    for (index, sequence) in sequences.enumerated() where !sequenceFound[index] && Self.ends(recent, with: sequence) {
                        sequenceFound[index] = true
                    }
                }
                for (span, synonym) in synonyms.enumerated() {
                    for (phrase, words) in synonym.alternatives.enumerated() {
                        for (position, phraseWord) in words.enumerated() where word.elementsEqual(phraseWord) {
                            phraseWordInField[span][phrase][position] = true
                        }
                    }
                }
                for (index, term) in terms.enumerated() where matches[index] < 1 {
                    if Self.word(word, startsWith: term) {
                        matches[index] = word.count == term.count ? 1 : 0.8
                        (typos[index], typosSeen[index]) = (0, true)
                    } else if let corrected = corrections[index].first(where: { word.elementsEqual($0.word) })?.typos {
                        matches[index] = max(matches[index], 0.8)
                        typos[index] = typosSeen[index] ? min(typos[index], corrected) : corrected
                        typosSeen[index] = true
                    }
                }
                return true
            }
            if column == .title { titleIsExact = titleSoFar && wordCount == terms.count }
            let lengthFactor = 1 / (1 + 0.05 * Double(max(0, wordCount - 1)))
            for index in terms.indices {
                let scored = column.weight * matches[index] * lengthFactor
                if matches[index] > 0, scored > matchedBest[index] || (scored == matchedBest[index] && matches[index] == 1) {
                    whole[index] = matches[index] == 1
                    matchedBest[index] = scored
                }
                best[index] = max(best[index], scored)
            }
            for span in phraseWordInField.indices {
                for phrase in phraseWordInField[span].indices {
                    for position in phraseWordInField[span][phrase].indices where phraseWordInField[span][phrase][position] {
                        phraseWordBest[span][phrase][position] = max(phraseWordBest[span][phrase][position], column.weight * lengthFactor)
                        phraseWordInField[span][phrase][position] = false
                    }
                }
            }
        }
        // A synonym span whose typed words were not all found, matched through a phrase: one typo, the phrase's
        // weakest field for each of its terms.
        var synonymsUsed = 0
        for (span, synonym) in synonyms.enumerated() where !synonym.terms.allSatisfy({ typosSeen[$0] }) {
            let weight = phraseWordBest[span].map { $0.min() ?? 0 }.max() ?? 0
            guard weight > 0 else { continue }
            synonymsUsed += 1
            for index in synonym.terms {
                best[index] = max(best[index], weight * 0.8)
                typos[index] = 0
            }
        }
        return Result(
            score: best.reduce(0, +) * (1 + Double(min(100, max(0, rankingHint ?? 0))) / 100), typos: typos.reduce(0, +), synonyms: synonymsUsed,
            sequences: sequenceFound.count { $0 }, titleIsExact: titleIsExact,
            wholeWords: whole.count { $0 }
        )
    }

    /// Whether `recent` ends with `sequence`'s words, its last one as a prefix.
    private static func ends(_ recent: [[UInt8]], with sequence: [[UInt8]]) -> Bool {
        guard recent.count >= sequence.count else { return false }
        let start = recent.count - sequence.count
        for (offset, word) in sequence.enumerated() {
            let candidate = recent[start + offset]
            if offset == sequence.count - 1 ? !candidate.starts(with: word) : candidate != word { return false }
        }
        return true
    }

    private static func word(_ word: UnsafeBufferPointer<UInt8>, startsWith term: [UInt8]) -> Bool {
        guard word.count >= term.count else { return false }
        return term.isEmpty || term.withUnsafeBufferPointer { term in memcmp(word.baseAddress!, term.baseAddress!, term.count) == 0 }
    }

    private static func prefix(of text: String) -> String {
        String(decoding: text.utf8.prefix(scoredBytesPerField), as: UTF8.self)
    }
}
