/// Finds where a hit's fields match a query's words, as the index matched them: a word of the text (split and
/// folded as the tokenizer does) matches when it starts with a query word, or is one of its typo corrections or a word of
/// a synonym phrase standing for it. Every store's hits get their
/// ``SearchHit/highlights`` and ``SearchHit/snippet`` here, so the stores answer alike.
struct SearchHighlighter: Sendable {
    /// About this many words make a snippet.
    static let snippetWords = 30
    /// A snippet is at most about this many UTF-16 units (plus its `…`): fewer words when they are long.
    static let maxSnippetLength = 400
    /// Only this much of a description (up to 64 KiB) is looked at: a page of a thousand hits stays cheap.
    static let scannedDescriptionBytes = 16 * 1024

    /// One word of a text: where it is, and which query word it starts with, if any.
    private typealias Word = (range: Range<Int>, term: Int?)

    /// The query words, one after another, and where each is: a text's words are compared without retaining an array
    /// per word.
    private let termBytes: [UInt8]
    private let termSpans: [Range<Int>]
    /// The typo corrections of the terms and the words of their synonym phrases: whole words, each with the (first)
    /// term it stands for.
    private let wholeWords: [[UInt8]: Int]

    package init(terms: SearchTerms) {
        termBytes = Array(terms.words.joined().utf8)
        var start = 0
        termSpans = terms.words.map { word in
            defer { start += word.utf8.count }
            return start..<(start + word.utf8.count)
        }
        let corrections = terms.corrections.enumerated().flatMap { index, corrections in corrections.map { (Array($0.word.utf8), index) } }
        let synonyms = terms.synonyms.flatMap { span in span.alternatives.joined().map { (Array($0.utf8), span.words.lowerBound) } }
        wholeWords = Dictionary(corrections + synonyms, uniquingKeysWith: min)
    }

    /// The words of `text` (of its first `maxBytes`; a word the limit cuts is left out).
    private func words(of text: String, maxBytes: Int = .max) -> [Word] {
        var words: [Word] = []
        termBytes.withUnsafeBufferPointer { termBytes in
            termSpans.withUnsafeBufferPointer { termSpans in
                TextFolding.forEachWordRange(in: text, maxBytes: maxBytes) { range, folded in
                    let term = termSpans.firstIndex { TextFolding.word(folded, startsWith: UnsafeBufferPointer(rebasing: termBytes[$0])) }
                        ?? (wholeWords.isEmpty ? nil : wholeWords[Array(folded)])
                    words.append((range, term))
                    return true
                }
            }
        }
        return words
    }

    private static func ranges(_ words: some Collection<Word>) -> [TextRange] {
        words.compactMap { $0.term == nil ? nil : TextRange(start: $0.range.lowerBound, end: $0.range.upperBound) }
    }

    /// `hit` with its highlights and, when it has a description, its snippet.
    package func highlighted(_ hit: SearchHit) -> SearchHit {
        var hit = hit
        let descriptionWords = hit.contentDescription.map { words(of: $0, maxBytes: Self.scannedDescriptionBytes) } ?? []
        hit.highlights = SearchHighlights(
            title: hit.title.map { Self.ranges(words(of: $0)) } ?? [],
            displayName: hit.displayName.map { Self.ranges(words(of: $0)) } ?? [],
            contentDescription: Self.ranges(descriptionWords),
            keywords: hit.keywords.map { Self.ranges(words(of: $0)) },
            authorNames: hit.authorNames.map { Self.ranges(words(of: $0)) }
        )
        hit.snippet = hit.contentDescription.map { snippet(of: $0, words: descriptionWords) }
        return hit
    }

    /// The window of ``snippetWords`` words of `description` that holds the most distinct query words (the first
    /// such, centred on its matches, fewer words when they are long), cut at word boundaries with `…`, and its
    /// matches.
    private func snippet(of description: String, words: [Word]) -> SearchSnippet {
        let utf16 = description.utf16
        let scannedAll = description.utf8.count <= Self.scannedDescriptionBytes
        guard !words.isEmpty else {
            // Nothing but separators where it was read: its opening.
            let end = Self.scalarBoundary(in: description, atMost: Self.maxSnippetLength)
            let opening = description[..<utf16.index(utf16.startIndex, offsetBy: end)]
            return SearchSnippet(text: opening + (end < utf16.count ? "…" : ""), highlights: [])
        }
        /// What of the description a window shows: from its first word (or the start), to its last (or the end).
        func span(_ window: Range<Int>) -> (start: Int, end: Int) {
            (window.lowerBound > 0 ? words[window.lowerBound].range.lowerBound : 0,
             window.upperBound < words.count || !scannedAll ? words[window.upperBound - 1].range.upperBound : utf16.count)
        }
        var window = bestWindow(in: words)
        // Long words: drop words from the side without a match until the window fits.
        while window.count > 1, span(window).end - span(window).start > Self.maxSnippetLength {
            if words[window.upperBound - 1].term == nil || words[window.lowerBound].term != nil {
                window = window.lowerBound..<(window.upperBound - 1)
            } else {
                window = (window.lowerBound + 1)..<window.upperBound
            }
        }
        var (start, end) = span(window)
        // One word longer than a snippet: its first part, its range cut with it.
        var ranges = Self.ranges(words[window])
        if end - start > Self.maxSnippetLength, window.count == 1 {
            start = words[window.lowerBound].range.lowerBound
            end = Self.scalarBoundary(in: description, atMost: start + Self.maxSnippetLength)
            ranges = ranges.map { TextRange(start: $0.start, end: min($0.end, end)) }
        }
        // Word boundaries fall between Unicode scalars, so these indices are valid in the string itself.
        let body = description[utf16.index(utf16.startIndex, offsetBy: start)..<utf16.index(utf16.startIndex, offsetBy: end)]
        let shift = (start > 0 ? 1 : 0) - start
        return SearchSnippet(
            text: (start > 0 ? "…" : "") + body + (end < utf16.count ? "…" : ""),
            highlights: ranges.map { TextRange(start: $0.start + shift, end: $0.end + shift) }
        )
    }

    /// The first window of ``snippetWords`` words holding the most distinct query words, centred on its matches.
    private func bestWindow(in words: [Word]) -> Range<Int> {
        let width = min(Self.snippetWords, words.count)
        var counts = [Int](repeating: 0, count: termSpans.count)
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
        var first = best.first
        let found = words[best.first..<(best.first + width)]
        if let low = found.firstIndex(where: { $0.term != nil }), let high = found.lastIndex(where: { $0.term != nil }) {
            first = min(max((low + high) / 2 - width / 2, 0), words.count - width)
            first = max(min(first, low), high - width + 1)
        }
        return first..<(first + width)
    }

    /// The largest offset up to `limit` that does not fall inside a Unicode scalar of `text`.
    private static func scalarBoundary(in text: String, atMost limit: Int) -> Int {
        var offset = 0
        for scalar in text.unicodeScalars {
            guard offset + UTF16.width(scalar) <= limit else { break }
            offset += UTF16.width(scalar)
        }
        return offset
    }
}

extension SearchResults {
    /// These results with every hit's highlights and snippet for the query words `terms`.
    package func highlighted(for terms: SearchTerms) -> SearchResults {
        let highlighter = SearchHighlighter(terms: terms)
        var results = self
        results.hits = results.hits.map(highlighter.highlighted)
        return results
    }

    /// The results of `query` as every store answers them: highlighted for `terms`, and with `distinct=page` each
    /// page's next items nested under its hit (``nestingSections()``).
    package func presented(for query: SearchQuery, terms: SearchTerms) -> SearchResults {
        let results = highlighted(for: terms)
        return query.distinct == .page ? results.nestingSections() : results
    }

    /// The hits, each followed by the other items of its page (``CandidateRanking/page(of:gathered:lifts:)`` lists
    /// them so), with those put under it as its ``SearchHit/sections``.
    func nestingSections() -> SearchResults {
        var nested: [SearchHit] = []
        var pageOfLast: String?
        for hit in hits {
            let page = SearchDistinct.page(domain: hit.domainIdentifier, related: hit.relatedUniqueIdentifier, unique: hit.uniqueIdentifier)
            if page == pageOfLast, !nested.isEmpty {
                nested[nested.count - 1].sections.append(hit)
            } else {
                nested.append(hit)
                pageOfLast = page
            }
        }
        var results = self
        results.hits = nested
        return results
    }
}
