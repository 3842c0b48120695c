/// Finds where a hit's fields match a query's words, as the index matched them: a word of the text (split and
/// folded as the tokenizer does) matches when it starts with a query word. Every store's hits get their
/// ``SearchHit/highlights`` and ``SearchHit/snippet`` here, so the stores answer alike.
package struct SearchHighlighter: Sendable {
    /// About this many words make a snippet.
    package static let snippetWords = 30
    /// Only this much of a description (up to 64 KiB) is looked at: a page of a thousand hits stays cheap.
    package static let scannedDescriptionBytes = 16 * 1024

    private let terms: [[UInt8]]

    package init(terms: SearchTerms) {
        self.terms = terms.words.map { Array($0.utf8) }
    }

    /// The words of `text` (of its first `maxBytes`) and which query word each matches, if any.
    private func words(of text: String, maxBytes: Int = .max) -> [(range: Range<Int>, term: Int?)] {
        var words: [(range: Range<Int>, term: Int?)] = []
        TextFolding.forEachWordRange(in: text, maxBytes: maxBytes) { range, folded in
            let word = Array(folded.utf8)
            words.append((range, terms.firstIndex { word.starts(with: $0) }))
            return true
        }
        return words
    }

    private func ranges(in text: String?, maxBytes: Int = .max) -> [TextRange] {
        guard let text else { return [] }
        return words(of: text, maxBytes: maxBytes).compactMap { $0.term == nil ? nil : TextRange(start: $0.range.lowerBound, end: $0.range.upperBound) }
    }

    /// Where each field of `hit` matched.
    package func highlights(of hit: SearchHit) -> SearchHighlights {
        SearchHighlights(
            title: ranges(in: hit.title),
            displayName: ranges(in: hit.displayName),
            contentDescription: ranges(in: hit.contentDescription, maxBytes: Self.scannedDescriptionBytes),
            keywords: hit.keywords.map { ranges(in: $0) }
        )
    }

    /// The window of ``snippetWords`` words of `description` that holds the most distinct query words (the first
    /// such, centred on its matches), cut at word boundaries with `…`, and its matches.
    package func snippet(of description: String) -> SearchSnippet {
        let words = words(of: description, maxBytes: Self.scannedDescriptionBytes)
        guard !words.isEmpty else { return SearchSnippet(text: description, highlights: []) }
        let width = min(Self.snippetWords, words.count)
        var counts = [Int](repeating: 0, count: terms.count)
        var distinct = 0, best = (first: 0, distinct: -1)
        for index in words.indices {
            if let term = words[index].term {
                counts[term] += 1
                if counts[term] == 1 { distinct += 1 }
            }
            let first = index - width + 1
            guard first >= 0 else { continue }
            if distinct > best.distinct { best = (first, distinct) }
            if let term = words[first].term {
                counts[term] -= 1
                if counts[term] == 0 { distinct -= 1 }
            }
        }
        // Centred on its matches, which all stay in it.
        var first = best.first
        let bestWindow = words[best.first..<(best.first + width)]
        if let low = bestWindow.firstIndex(where: { $0.term != nil }), let high = bestWindow.lastIndex(where: { $0.term != nil }) {
            first = min(max((low + high) / 2 - width / 2, 0), words.count - width)
            first = max(min(first, low), high - width + 1)
        }
        let window = words[first..<(first + width)]
        let utf16 = description.utf16
        let cutBefore = first > 0
        let cutAfter = first + width < words.count || description.utf8.count > Self.scannedDescriptionBytes
        let start = cutBefore ? window.first!.range.lowerBound : 0
        let end = cutAfter ? window.last!.range.upperBound : utf16.count
        // Word boundaries fall between Unicode scalars, so these indices are valid in the string itself.
        let body = description[utf16.index(utf16.startIndex, offsetBy: start)..<utf16.index(utf16.startIndex, offsetBy: end)]
        let shift = (cutBefore ? 1 : 0) - start
        return SearchSnippet(
            text: (cutBefore ? "…" : "") + body + (cutAfter ? "…" : ""),
            highlights: window.compactMap { $0.term == nil ? nil : TextRange(start: $0.range.lowerBound + shift, end: $0.range.upperBound + shift) }
        )
    }
}

extension SearchResults {
    /// These results with every hit's highlights and snippet for the query words `terms`.
    package func highlighted(for terms: SearchTerms) -> SearchResults {
        let highlighter = SearchHighlighter(terms: terms)
        var results = self
        for index in results.hits.indices {
            results.hits[index].highlights = highlighter.highlights(of: results.hits[index])
            results.hits[index].snippet = results.hits[index].contentDescription.map(highlighter.snippet(of:))
        }
        return results
    }
}
