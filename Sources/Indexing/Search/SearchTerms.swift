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

    /// The distinct words, folded to lowercase without diacritics, in the order they appear.
    public let words: [String]

    public init(_ text: String) {
        var words: [String] = []
        TextFolding.forEachWord(in: text) { bytes in
            let term = String(String(decoding: bytes, as: UTF8.self).prefix(Self.maxTermCharacters))
            if !words.contains(term) { words.append(term) }
            return words.count < Self.maxTerms
        }
        self.words = words
    }

    /// The FTS5 MATCH expression, or `nil` when the text holds no word at all.
    public var matchExpression: String? {
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"*" }.joined(separator: " ")
    }
}
