import Indexing
import PluginAPI

/// The words of an item's searchable fields, folded exactly as the search folds what a user types
/// (``SearchTerms``), stored as `tsvector`s through `array_to_tsvector` so PostgreSQL's own parser never
/// re-splits them: a prefix query (`'livr':*`) then matches what the SQLite index would.
struct ItemWords {
    /// Every field: title, display name, keywords and description.
    var all: [String]
    /// Title, display name and keywords.
    var best: [String]
    /// Title and display name.
    var names: [String]

    init(title: String?, displayName: String?, keywords: String, contentDescription: String?) {
        names = Self.words(of: [title, displayName])
        best = Self.words(of: [title, displayName, keywords], adding: names)
        all = Self.words(of: [contentDescription], adding: best)
    }

    /// The distinct folded words of `texts`, after those of `known`, each cut as a search term is.
    private static func words(of texts: [String?], adding known: [String] = []) -> [String] {
        var seen = Set(known)
        var words = known
        for case let text? in texts {
            TextFolding.forEachWord(in: text) { bytes in
                let word = String(String(decoding: bytes, as: UTF8.self).prefix(SearchTerms.maxTermCharacters))
                if seen.insert(word).inserted { words.append(word) }
                return true
            }
        }
        return words
    }

    /// The `tsquery` text matching every term as a prefix: `'livr':* & 'delai':*`. The terms are folded words
    /// (letters, digits and marks only); quotes and backslashes are escaped all the same.
    static func prefixQuery(_ terms: SearchTerms) -> String {
        terms.words.map { word in
            "'" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "':*"
        }.joined(separator: " & ")
    }
}
