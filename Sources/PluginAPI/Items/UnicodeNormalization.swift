import Foundation

/// Text in Unicode's composed form (NFC), the form keyboards and nearly every web page produce: the index compares
/// words byte by byte, so a query and an item meet only when both are in one form. Items are written and queries
/// read in NFC; text that is already in it (any text without a code point from U+0300 on, the combining marks'
/// start) is returned as it is, without a copy.
public enum UnicodeNormalization {
    /// `text` in NFC.
    public static func composed(_ text: String) -> String {
        mayChange(text) ? text.precomposedStringWithCanonicalMapping : text
    }

    /// Whether `text` holds a code point from U+0300 on (UTF-8 lead bytes from 0xCC): below it no character
    /// combines with another or has another composed form, so NFC leaves such text unchanged.
    public static func mayChange(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.contains { $0 >= 0xCC } }
    }
}

extension SearchableItem {
    /// This item with its searchable text (title, display name, description, keywords, author names) in NFC, so
    /// that a query finds it whichever form its source wrote; `nil` when it is in NFC already (nearly always, and
    /// told without a copy). Identifiers, links and dates are left as sent.
    public func composingText() -> SearchableItem? {
        let mayChange = [title, displayName, contentDescription].contains { $0.map(UnicodeNormalization.mayChange) ?? false }
            || keywords.contains(where: UnicodeNormalization.mayChange) || authorNames.contains(where: UnicodeNormalization.mayChange)
        guard mayChange else { return nil }
        var item = self
        item.title = title.map(UnicodeNormalization.composed)
        item.displayName = displayName.map(UnicodeNormalization.composed)
        item.contentDescription = contentDescription.map(UnicodeNormalization.composed)
        item.keywords = keywords.map(UnicodeNormalization.composed)
        item.authorNames = authorNames.map(UnicodeNormalization.composed)
        return item
    }
}
