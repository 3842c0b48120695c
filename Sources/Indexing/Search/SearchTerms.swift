import PluginAPI

/// Turns any user text into a safe query (``WordMatch``) that matches every word as a prefix.
///
/// The text is split into words as the index's tokenizer splits them (``TextFolding``): letters, digits and the
/// accents folded away; everything else (quotes, `*`, `-`, parentheses, emoji, punctuation, most other marks)
/// separates words. Each word is quoted, so `AND`, `OR`, `NOT` and
/// `NEAR` are plain words, and given a `*` so it matches as a prefix: `chee` finds "Cheetah". A word may also
/// match the indexed words it stands for with typos (``corrections``, found by ``TypoCorrector``), and typed words
/// that are a phrase of a synonym group the group's other phrases (``synonyms``).
public struct SearchTerms: Sendable, Hashable {
    /// At most this many words are used; the rest of a long text is ignored.
    public static let maxTerms = 16
    /// A longer word is cut to this many characters.
    public static let maxTermCharacters = 64

    /// The distinct words, folded to lowercase without diacritics, in the order they appear.
    public private(set) var words: [String]
    /// For each word, the indexed words it may stand for with typos: empty until ``TypoCorrector`` fills them.
    public private(set) var corrections: [[TypoCorrection]]

    /// The words typed joined by dots, hyphens, slashes or other punctuation without spaces (`3.4.0`, `v2.1-rc1`,
    /// `en/news`), each as its folded words, in order: items holding one word after word rank first. At most
    /// ``maxSequences``, of 2 to ``maxSequenceWords`` words.
    public let sequences: [[String]]
    public static let maxSequences = 4
    public static let maxSequenceWords = 8

    /// The runs of typed words that are a phrase of a synonym group, with the group's other phrases: an item holding
    /// one of those instead matches too.
    public private(set) var synonyms: [SynonymSpan]

    /// Whether any word has a correction.
    public var hasCorrections: Bool { corrections.contains { !$0.isEmpty } }

    /// The terms of `text`, with the `synonyms` its words name. The text is read in Unicode's composed form, the
    /// form items are written in (``UnicodeNormalization``): a query typed decomposed finds what it spells.
    public init(_ text: String, synonyms: Synonyms = .none) {
        let text = UnicodeNormalization.composed(text)
        var words: [String] = []
        TextFolding.forEachWord(in: text) { bytes in
            let term = Self.term(bytes)
            if !words.contains(term) { words.append(term) }
            return words.count < Self.maxTerms
        }
        self.words = words
        corrections = Array(repeating: [], count: words.count)
        var sequences: [[String]] = []
        for chunk in text.split(whereSeparator: \.isWhitespace) where sequences.count < Self.maxSequences {
            var sequence: [String] = []
            TextFolding.forEachWord(in: chunk) { bytes in
                sequence.append(Self.term(bytes))
                return sequence.count <= Self.maxSequenceWords
            }
            if (2...Self.maxSequenceWords).contains(sequence.count), !sequences.contains(sequence) { sequences.append(sequence) }
        }
        self.sequences = sequences
        self.synonyms = synonyms.spans(in: words)
    }

    /// A folded word as a search term: its first ``maxTermCharacters`` characters, counted as Unicode scalars (a
    /// letter followed by a thousand marks is cut too), so a term is at most 256 bytes.
    package static func term(_ folded: UnsafeBufferPointer<UInt8>) -> String {
        String(String.UnicodeScalarView(String(decoding: folded, as: UTF8.self).unicodeScalars.prefix(maxTermCharacters)))
    }

    /// These terms without their last word (and the synonym phrase holding it): what matches more items.
    func droppingLastWord() -> SearchTerms {
        var terms = self
        terms.words.removeLast()
        terms.corrections.removeLast()
        terms.synonyms.removeAll { $0.words.upperBound > terms.words.count }
        return terms
    }

    /// These terms with `corrections`, one list per word.
    func withCorrections(_ corrections: [[TypoCorrection]]) -> SearchTerms {
        var terms = self
        terms.corrections = corrections
        return terms
    }

    /// What an item's words must hold, or `nil` when the text holds no word at all: every word as a prefix, or one of
    /// its corrections whole; where typed words are a synonym phrase, those or one of the other phrases, whole.
    package var match: WordMatch? {
        guard !words.isEmpty else { return nil }
        func typed(_ index: Int) -> WordMatch {
            .any(of: [.prefix(words[index])] + corrections[index].map { .whole($0.word) })
        }
        var clauses: [WordMatch] = []
        var index = 0
        while index < words.count {
            if let span = synonyms.first(where: { $0.words.lowerBound == index }) {
                clauses.append(.any([.all(of: span.words.map(typed))] + span.alternatives.map { .all(of: $0.map(WordMatch.whole)) }))
                index = span.words.upperBound
            } else {
                clauses.append(typed(index))
                index += 1
            }
        }
        return .all(of: clauses)
    }
}
