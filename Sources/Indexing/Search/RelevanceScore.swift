import Foundation

/// How well an item matches the search terms, and the facts ranking orders by before it: the ranking rules are
/// described once, for users and contributors alike, in docs/search.md ("Ranking").
///
/// Each term counts the weight of the best field it matches (``SearchColumn/weight``); a word matched through a typo
/// correction (``SearchTerms/corrections``) counts as a prefix would; typed words matched only through a synonym
/// phrase (``SearchTerms/synonyms``) score as prefixes in the phrase's weakest field.
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
        var titleIsExact: Bool
        /// The weight of the best field each term matches (``SearchColumn/weight``), whole word or prefix, summed: a
        /// title holding the words comes before a description holding them whole (Algolia's and Meilisearch's
        /// "attribute" rule, before their "exactness").
        package var fields: Double
        /// How many terms the field where they score best holds as a whole word, not only as the prefix of a longer one.
        var wholeWords: Int
    }

    /// Only the words of this much of each field are read for scoring (a candidate keeps no more,
    /// ``CandidateRanking/Candidate``).
    static let scoredBytesPerField = 4096

    /// The typed words, then every correction, as one run of bytes: scoring compares words byte by byte without
    /// retaining an array per word.
    private let bytes: [UInt8]
    /// Where each typed word is in ``bytes``.
    private let termSpans: [ByteSpan]
    /// Where each correction is in ``bytes``, with the typos it stands for: a term's corrections one after another.
    private let correctionSpans: [ByteSpan]
    /// Each term's corrections in ``correctionSpans``.
    private let correctionsOfTerm: [Range<Int>]
    private let sequences: [[[UInt8]]]
    /// The longest sequence's words.
    private let longestSequence: Int
    /// The synonym spans: the terms they cover, and the phrases that may stand for them.
    private let synonyms: [(terms: Range<Int>, alternatives: [[[UInt8]]])]

    /// A word's bytes in ``bytes``.
    private struct ByteSpan {
        var start: Int
        var count: Int
        var typos: Int
    }

    /// What scoring knows of one term while it reads an item's fields.
    private struct TermState {
        /// The best weighted match so far; a term found nowhere counts as half a description match.
        var best = SearchColumn.contentDescription.weight * 0.5
        /// How the field being read matches it: 1 a whole word, 0.8 a prefix or a correction, 0 not at all.
        var match = 0.0
        /// The fewest typos it needed (a term not found in the scored text: its fewest correction's).
        var typos: Int
        /// Whether some field held it, or one of its corrections.
        var seen = false
        /// Whether its best match so far (of those found, whatever the floor of ``best``) is a whole word.
        var whole = false
        var matchedBest = 0.0
        /// The weight of the best field that held it (0: none).
        var field = 0.0

        /// The field being read holds a correction of the term (and no word starting with the term so far).
        mutating func corrected(by correction: ByteSpan) {
            match = max(match, 0.8)
            typos = seen ? min(typos, correction.typos) : correction.typos
            seen = true
        }
    }

    package init(terms: SearchTerms) {
        var bytes: [UInt8] = []
        func span(_ word: some Collection<UInt8>, typos: Int) -> ByteSpan {
            defer { bytes += word }
            return ByteSpan(start: bytes.count, count: word.count, typos: typos)
        }
        termSpans = terms.words.map { span($0.utf8, typos: 0) }
        var correctionSpans: [ByteSpan] = []
        var correctionsOfTerm: [Range<Int>] = []
        for corrections in terms.corrections {
            // By their bytes, as the index compares words: two spellings `String` holds equal (a Hangul syllable and
            // its jamo) are two words.
            let fewest = Dictionary(corrections.map { (Array($0.word.utf8), $0.typos) }, uniquingKeysWith: min)
            let start = correctionSpans.count
            correctionSpans += fewest.map { span($0.key, typos: $0.value) }
            correctionsOfTerm.append(start..<correctionSpans.count)
        }
        self.bytes = bytes
        self.correctionSpans = correctionSpans
        self.correctionsOfTerm = correctionsOfTerm
        sequences = terms.sequences.map { $0.map { Array($0.utf8) } }
        longestSequence = sequences.map(\.count).max() ?? 0
        synonyms = terms.synonyms.map { span in (span.words, span.alternatives.map { $0.map { Array($0.utf8) } }) }
    }

    /// The score of `candidate`, the typos its match needed and the sequences it holds.
    package func score(_ candidate: CandidateRanking.Candidate) -> Result {
        // Buffers, not arrays, in the loop over each word: reading an array there retains and releases it.
        candidate.withFields { fields in
            bytes.withUnsafeBufferPointer { bytes in
                termSpans.withUnsafeBufferPointer { termSpans in
                    correctionSpans.withUnsafeBufferPointer { correctionSpans in
                        correctionsOfTerm.withUnsafeBufferPointer { correctionsOfTerm in
                            let query = TermBytes(bytes: bytes, terms: termSpans, corrections: correctionSpans, correctionsOfTerm: correctionsOfTerm)
                            return score(rankingHint: candidate.rankingHint, fields: fields, query: query)
                        }
                    }
                }
            }
        }
    }

    private func score(rankingHint: Int?, fields: CandidateRanking.Candidate.Fields, query: TermBytes) -> Result {
        withUnsafeTemporaryAllocation(of: TermState.self, capacity: query.terms.count) { state in
            for index in query.terms.indices {
                // A term not found in the scored text (the index matched it further on) counts its fewest typos.
                let fewest = query.corrections[query.correctionsOfTerm[index]].lazy.map(\.typos).min() ?? 0
                (state.baseAddress! + index).initialize(to: TermState(typos: fewest))
            }
            defer { state.baseAddress!.deinitialize(count: query.terms.count) }
            return score(rankingHint: rankingHint, fields: fields, query: query, state: state)
        }
    }

    /// The typed words and their corrections, as bytes: what the loop over each word of a field compares its words with.
    private struct TermBytes {
        var bytes: UnsafeBufferPointer<UInt8>
        var terms: UnsafeBufferPointer<ByteSpan>
        var corrections: UnsafeBufferPointer<ByteSpan>
        var correctionsOfTerm: UnsafeBufferPointer<Range<Int>>

        /// The word at `span`.
        func word(at span: ByteSpan) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[span.start..<(span.start + span.count)])
        }

        /// Whether `word` starts with the word at `span`.
        func starts(_ word: UnsafeBufferPointer<UInt8>, with span: ByteSpan) -> Bool {
            TextFolding.word(word, startsWith: self.word(at: span))
        }

        /// The correction of term `index` that `word` is, if any.
        func correction(of index: Int, equalTo word: UnsafeBufferPointer<UInt8>) -> ByteSpan? {
            let range = correctionsOfTerm[index]
            guard !range.isEmpty else { return nil }
            return UnsafeBufferPointer(rebasing: corrections[range]).first { $0.count == word.count && starts(word, with: $0) }
        }
    }

    private func score(
        rankingHint: Int?, fields: CandidateRanking.Candidate.Fields, query: TermBytes, state: UnsafeMutableBufferPointer<TermState>
    ) -> Result {
        var reading = FieldReading(self)
        for column in SearchColumn.allCases {
            guard let words = fields[column], reading.needs(column, state: state) else { continue }
            for index in state.indices { state[index].match = 0 }
            let wordCount: Int
            if column != .title, longestSequence == 0, synonyms.isEmpty {
                // Each term is looked for in turn: what the walk finds, with less to do for each word.
                wordCount = words.count
                for index in state.indices {
                    Self.match(index, in: words, query: query, state: &state[index])
                }
            } else {
                wordCount = reading.walk(words, of: column, query: query, state: state)
            }
            let lengthFactor = 1 / (1 + 0.05 * Double(max(0, wordCount - 1)))
            Self.record(column, lengthFactor: lengthFactor, state: state)
            reading.recordPhraseWords(weight: column.weight * lengthFactor)
        }
        let synonymsUsed = reading.applySynonymPhrases(state: state)
        return Result(
            score: state.reduce(0) { $0 + $1.best } * (1 + Double(min(100, max(0, rankingHint ?? 0))) / 100),
            typos: state.reduce(0) { $0 + $1.typos }, synonyms: synonymsUsed, sequences: reading.sequenceFound.count { $0 },
            titleIsExact: reading.titleIsExact, fields: state.reduce(0) { $0 + $1.field }, wholeWords: state.count { $0.whole }
        )
    }

    /// Each term's best match with the field just read, its weight scaled by `lengthFactor`.
    private static func record(_ column: SearchColumn, lengthFactor: Double, state: UnsafeMutableBufferPointer<TermState>) {
        for index in state.indices {
            let match = state[index].match
            if match > 0 { state[index].field = max(state[index].field, column.weight) }
            let scored = column.weight * match * lengthFactor
            if match > 0, scored > state[index].matchedBest || (scored == state[index].matchedBest && match == 1) {
                state[index].whole = match == 1
                state[index].matchedBest = scored
            }
            state[index].best = max(state[index].best, scored)
        }
    }

    /// What scoring one item learns across its fields, beside each term's state: the sequences found, whether the
    /// title is exactly the typed words, and how well each synonym phrase's words are held.
    private struct FieldReading {
        let sequences: [[[UInt8]]]
        let longestSequence: Int
        let synonyms: [(terms: Range<Int>, alternatives: [[[UInt8]]])]
        var sequenceFound: [Bool]
        var titleIsExact = false
        /// For each word of each synonym phrase, the best weight of a field holding it (0: none).
        var phraseWordBest: [[[Double]]]
        /// Whether the field being read holds each word of each synonym phrase.
        var phraseWordInField: [[[Bool]]]

        init(_ score: RelevanceScore) {
            (sequences, longestSequence, synonyms) = (score.sequences, score.longestSequence, score.synonyms)
            sequenceFound = [Bool](repeating: false, count: sequences.count)
            phraseWordBest = synonyms.map { $0.alternatives.map { [Double](repeating: 0, count: $0.count) } }
            phraseWordInField = phraseWordBest.map { $0.map { $0.map { _ in false } } }
        }

        /// Whether `column` can change the score: a field counts at most its weight for a term, so once every term
        /// does as well, and no term is left with typos, sequence or synonym a later field could spare, it is not read.
        func needs(_ column: SearchColumn, state: UnsafeMutableBufferPointer<TermState>) -> Bool {
            state.contains(where: { $0.best < column.weight || $0.typos > 0 }) || sequenceFound.contains(false)
                || synonyms.contains { !$0.terms.allSatisfy { state[$0].seen } }
        }

        /// Reads the field's `words` one by one, matching every term, sequence and synonym phrase word; the words read.
        mutating func walk(
            _ words: FoldedWords, of column: SearchColumn, query: TermBytes, state: UnsafeMutableBufferPointer<TermState>
        ) -> Int {
            let termSpans = query.terms
            var wordCount = 0
            /// Whether the title's words so far are the typed words, in order.
            var titleSoFar = column == .title
            /// The field's last words, as many as the longest sequence holds.
            var recent: [[UInt8]] = []
            words.forEach { word in
                wordCount += 1
                if titleSoFar {
                    titleSoFar = wordCount <= termSpans.count && word.count == termSpans[wordCount - 1].count
                        && query.starts(word, with: termSpans[wordCount - 1])
                }
                if longestSequence > 0 { noteSequences(ending: word, recent: &recent) }
                if !synonyms.isEmpty { notePhraseWords(word) }
                for index in state.indices where state[index].match < 1 {
                    let term = termSpans[index]
                    if query.starts(word, with: term) {
                        state[index].match = word.count == term.count ? 1 : 0.8
                        (state[index].typos, state[index].seen) = (0, true)
                    } else if let corrected = query.correction(of: index, equalTo: word) {
                        state[index].corrected(by: corrected)
                    }
                }
                return true
            }
            if column == .title { titleIsExact = titleSoFar && wordCount == termSpans.count }
            return wordCount
        }

        /// Marks the sequences the field's words end with once `word` is added to the `recent` ones.
        private mutating func noteSequences(ending word: UnsafeBufferPointer<UInt8>, recent: inout [[UInt8]]) {
            if recent.count == longestSequence { recent.removeFirst() }
            recent.append(Array(word))
            for (index, sequence) in sequences.enumerated() where !sequenceFound[index] && RelevanceScore.ends(recent, with: sequence) {
                sequenceFound[index] = true
            }
        }

        /// Marks the synonym phrase words `word` is.
        private mutating func notePhraseWords(_ word: UnsafeBufferPointer<UInt8>) {
            for (span, synonym) in synonyms.enumerated() {
                for (phrase, phraseWords) in synonym.alternatives.enumerated() {
                    for (position, phraseWord) in phraseWords.enumerated() where word.elementsEqual(phraseWord) {
                        phraseWordInField[span][phrase][position] = true
                    }
                }
            }
        }

        /// Keeps the weight of the field just read for each synonym phrase word it held.
        mutating func recordPhraseWords(weight: Double) {
            for span in phraseWordInField.indices {
                for phrase in phraseWordInField[span].indices {
                    for position in phraseWordInField[span][phrase].indices where phraseWordInField[span][phrase][position] {
                        phraseWordBest[span][phrase][position] = max(phraseWordBest[span][phrase][position], weight)
                        phraseWordInField[span][phrase][position] = false
                    }
                }
            }
        }

        /// Scores each synonym span whose typed words were not all found, but matched through a phrase: one typo, the
        /// phrase's weakest field for each of its terms. The spans so matched.
        func applySynonymPhrases(state: UnsafeMutableBufferPointer<TermState>) -> Int {
            var used = 0
            for (span, synonym) in synonyms.enumerated() where !synonym.terms.allSatisfy({ state[$0].seen }) {
                let weight = phraseWordBest[span].map { $0.min() ?? 0 }.max() ?? 0
                guard weight > 0 else { continue }
                used += 1
                for index in synonym.terms {
                    state[index].best = max(state[index].best, weight * 0.8)
                    state[index].typos = 0
                }
            }
            return used
        }
    }

    /// How the field whose folded `words` are given matches term `index`: what the walk over its words finds, word
    /// after word, in one look for the term and one for each of its corrections.
    private static func match(_ index: Int, in words: FoldedWords, query: TermBytes, state: inout TermState) {
        let found = words.find(query.word(at: query.terms[index]))
        if found.startsAWord {
            state.match = found.isAWord ? 1 : 0.8
            (state.typos, state.seen) = (0, true)
            return
        }
        for correction in query.corrections[query.correctionsOfTerm[index]] where words.find(query.word(at: correction)).isAWord {
            state.corrected(by: correction)
        }
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
}
