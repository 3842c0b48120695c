/// Turns any user text into a safe FTS5 query that matches every word as a prefix.
///
/// The text is split into words of letters, digits and combining marks; everything else (quotes, `*`,
/// `-`, parentheses, emoji, punctuation) separates words. Each word is quoted, so `AND`, `OR`, `NOT` and
/// `NEAR` are plain words, and given a `*` so it matches as a prefix: `chee` finds "Cheetah".
public struct SearchTerms: Sendable, Hashable {
    /// At most this many words are used; the rest of a long text is ignored.
    public static let maxTerms = 16
    /// A longer word is cut to this many characters.
    public static let maxTermCharacters = 64

    /// The distinct words, in the order they appear.
    public let words: [String]

    public init(_ text: String) {
        var words: [String] = []
        var seen: Set<String> = []
        var current = String.UnicodeScalarView()
        func flush() {
            defer { current = String.UnicodeScalarView() }
            guard !current.isEmpty, words.count < Self.maxTerms else { return }
            let word = String(String(current).lowercased().prefix(Self.maxTermCharacters))
            if seen.insert(word).inserted { words.append(word) }
        }
        for scalar in text.unicodeScalars {
            if Self.isWordScalar(scalar) {
                current.append(scalar)
            } else {
                flush()
            }
            if words.count >= Self.maxTerms { break }
        }
        flush()
        self.words = words
    }

    /// The FTS5 MATCH expression, or `nil` when the text holds no word at all.
    public var matchExpression: String? {
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0)\"*" }.joined(separator: " ")
    }

    /// The characters the index tokenizer (unicode61) treats as parts of words.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .privateUse, .nonspacingMark, .spacingMark:
            true
        default:
            false
        }
    }
}
