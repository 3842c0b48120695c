package import PluginAPI

/// The indexed words typos are corrected to (``TypoCorrector``): the words of items' titles, display names,
/// keywords and author names, folded, without those holding a digit (numbers and codes match as typed) or longer than a search term
/// (``SearchTerms/maxTermCharacters``), which every store would match differently.
/// Every store keeps them in a table of its own, adding the words of each item it writes and removing none: a
/// word no item holds any more is a correction that matches nothing. Descriptions are left out: their words would
/// multiply the table and the corrections read, for the matches people look for least.
package enum SearchVocabulary {
    /// Adds the words of `item` to `words`.
    package static func insertWords(of item: SearchableItem, into words: inout Set<String>) {
        insertWords(title: item.title, displayName: item.displayName, names: item.keywords + item.authorNames, into: &words)
    }

    /// Adds the words of an item's title, display name and `names` (its keywords and author names) to `words`.
    package static func insertWords(title: String?, displayName: String?, names: [String], into words: inout Set<String>) {
        for text in [title, displayName].compactMap({ $0 }) + names {
            TextFolding.forEachWord(in: text) { bytes in
                let word = String(decoding: bytes, as: UTF8.self)
                if word.unicodeScalars.count <= SearchTerms.maxTermCharacters, !word.unicodeScalars.contains(where: TypoTolerance.isDigit) {
                    words.insert(word)
                }
                return true
            }
        }
    }
}
