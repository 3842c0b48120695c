import PluginAPI
/// Groups of words or short phrases that find each other (`search.synonyms` in `scheduler.yaml`):
/// `[[tee, t-shirt], [nyc, new york]]`. Applied to what people type, never to stored text: typed words that are
/// one phrase of a group (folded, whole, in order) also match an item holding another phrase of the group, each of
/// its words whole. A match through a synonym ranks as a match with one typo (below every exact match).
public struct Synonyms: Sendable, Hashable {
    /// A phrase holds at most this many words.
    public static let maxPhraseWords = 8
    /// A group holds at most this many phrases.
    public static let maxPhrasesPerGroup = 16

    /// No synonyms.
    public static let none = Synonyms(groups: [])

    /// Each group's phrases, each phrase as its folded words; phrases holding no word, or more than
    /// ``maxPhraseWords``, left out, and phrases past ``maxPhrasesPerGroup``.
    public let groups: [[[String]]]
    /// The group of each phrase; a phrase of two groups belongs to the first.
    private let groupOfPhrase: [[String]: Int]
    /// The most words a phrase holds.
    private let longestPhrase: Int

    /// `groups` of phrases as people write them (`"t-shirt"`, `"New York"`), folded as the index folds words.
    public init(groups: [[String]]) {
        let folded = groups.map { phrases in
            Array(phrases.map(Self.words(of:)).filter { (1...Self.maxPhraseWords).contains($0.count) }.prefix(Self.maxPhrasesPerGroup))
        }
        self.groups = folded
        var groupOfPhrase: [[String]: Int] = [:]
        for (group, phrases) in folded.enumerated() {
            for phrase in phrases where groupOfPhrase[phrase] == nil { groupOfPhrase[phrase] = group }
        }
        self.groupOfPhrase = groupOfPhrase
        longestPhrase = groupOfPhrase.keys.map(\.count).max() ?? 0
    }

    /// The folded words of `phrase`, in order, each cut as a search term is.
    public static func words(of phrase: String) -> [String] {
        var words: [String] = []
        // In the composed form items and queries are read in (``UnicodeNormalization``).
        TextFolding.forEachWord(in: UnicodeNormalization.composed(phrase)) { bytes in
            words.append(SearchTerms.term(bytes))
            return words.count <= maxPhraseWords
        }
        return words
    }

    /// The runs of `words` that are a phrase of some group, the longest first from the left, none overlapping;
    /// each with its group's other phrases.
    func spans(in words: [String]) -> [SynonymSpan] {
        guard longestPhrase > 0 else { return [] }
        var spans: [SynonymSpan] = []
        var start = 0
        while start < words.count {
            let found = stride(from: min(longestPhrase, words.count - start), through: 1, by: -1).lazy.compactMap { length in
                self.groupOfPhrase[Array(words[start..<(start + length)])].map { (length, $0) }
            }.first
            guard let (length, group) = found else {
                start += 1
                continue
            }
            let phrase = Array(words[start..<(start + length)])
            spans.append(SynonymSpan(words: start..<(start + length), alternatives: groups[group].filter { $0 != phrase }))
            start += length
        }
        return spans.filter { !$0.alternatives.isEmpty }
    }
}

/// Typed words that are a phrase of a synonym group (``Synonyms``), with the group's other phrases.
public struct SynonymSpan: Sendable, Hashable {
    /// The positions of the words in ``SearchTerms/words``.
    public let words: Range<Int>
    /// The phrases an item may hold instead, each as its folded words, matched whole.
    public let alternatives: [[String]]
}
