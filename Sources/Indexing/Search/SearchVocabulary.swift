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
        func insert(_ text: String?) {
            guard let text else { return }
            TextFolding.forEachWord(in: text) { bytes in
                if let word = word(bytes) { words.insert(word) }
                return true
            }
        }
        insert(title)
        insert(displayName)
        names.forEach(insert)
    }

    /// The word a folded word's `bytes` spell, unless it holds a digit or is longer than a search term.
    static func word(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        // ASCII (most words, in every write): a byte is a character, and the only digits are 0–9. Asking Unicode
        // for each scalar's numeric type was about 3 % of an import's CPU.
        if !bytes.contains(where: { $0 >= 0x80 }) {
            guard bytes.count <= SearchTerms.maxTermCharacters, !bytes.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        let word = String(decoding: bytes, as: UTF8.self)
        guard word.unicodeScalars.count <= SearchTerms.maxTermCharacters, !word.unicodeScalars.contains(where: TypoTolerance.isDigit) else { return nil }
        return word
    }
}
