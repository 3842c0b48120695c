/// Turns any user text into a safe FTS5 query that matches every word as a prefix.
///
/// The text is split into words as the index's tokenizer splits them (``TextFolding``): letters, digits and the
/// accents folded away; everything else (quotes, `*`, `-`, parentheses, emoji, punctuation, most other marks)
/// separates words. Each word is quoted, so `AND`, `OR`, `NOT` and
/// `NEAR` are plain words, and given a `*` so it matches as a prefix: `chee` finds "Cheetah". A word may also
/// match the indexed words it stands for with typos (``corrections``, found by ``TypoCorrector``).
public struct SearchTerms: Sendable, Hashable {
    /// At most this many words are used; the rest of a long text is ignored.
    public static let maxTerms = 16
    /// A longer word is cut to this many characters.
    public static let maxTermCharacters = 64

    /// The distinct words, folded to lowercase without diacritics, in the order they appear.
    public let words: [String]
    /// For each word, the indexed words it may stand for with typos: empty until ``TypoCorrector`` fills them.
    public private(set) var corrections: [[TypoCorrection]]

    /// The words typed joined by dots, hyphens, slashes or other punctuation without spaces (`3.4.0`, `v2.1-rc1`,
    /// `en/news`), each as its folded words, in order: items holding one word after word rank first. At most
    /// ``maxSequences``, of 2 to ``maxSequenceWords`` words.
    public let sequences: [[String]]
    public static let maxSequences = 4
    public static let maxSequenceWords = 8

    /// Whether any word has a correction.
    public var hasCorrections: Bool { corrections.contains { !$0.isEmpty } }

    public init(_ text: String) {
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
    }

    /// A folded word as a search term: its first ``maxTermCharacters`` characters, counted as Unicode scalars (a
    /// letter followed by a thousand marks is cut too), so a term is at most 256 bytes.
    package static func term(_ folded: UnsafeBufferPointer<UInt8>) -> String {
        String(String.UnicodeScalarView(String(decoding: folded, as: UTF8.self).unicodeScalars.prefix(maxTermCharacters)))
    }

    /// These terms with `corrections`, one list per word.
    func withCorrections(_ corrections: [[TypoCorrection]]) -> SearchTerms {
        var terms = self
        terms.corrections = corrections
        return terms
    }

    /// The FTS5 MATCH expression, or `nil` when the text holds no word at all: each word as a prefix, or one of
    /// its corrections as a whole word, joined by `AND` (FTS5 takes no implicit `AND` beside parentheses).
    public var matchExpression: String? {
        guard !words.isEmpty else { return nil }
        func quoted(_ word: String) -> String { "\"\(word.replacingOccurrences(of: "\"", with: "\"\""))\"" }
        return zip(words, corrections).map { word, corrections in
            corrections.isEmpty ? quoted(word) + "*" : "(" + ([quoted(word) + "*"] + corrections.map { quoted($0.word) }).joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
    }
}
