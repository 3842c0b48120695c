/// A stretch of a stored text, as `[start, end)` offsets in UTF-16 code units: what JavaScript's `String.slice`
/// takes. Encoded as the pair `[start, end]`.
public struct TextRange: Sendable, Hashable, Codable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        start = try container.decode(Int.self)
        end = try container.decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(start)
        try container.encode(end)
    }
}

/// Where a hit's fields matched the query: the whole words that start with one of its words, per field (and per
/// keyword, in the item's order), in the order they appear.
public struct SearchHighlights: Sendable, Hashable, Codable {
    public var title: [TextRange]
    public var displayName: [TextRange]
    public var contentDescription: [TextRange]
    /// One list per keyword of the hit, in order.
    public var keywords: [[TextRange]]
    /// One list per author name of the hit, in order.
    public var authorNames: [[TextRange]]

    public init(title: [TextRange], displayName: [TextRange], contentDescription: [TextRange], keywords: [[TextRange]], authorNames: [[TextRange]]) {
        self.title = title
        self.displayName = displayName
        self.contentDescription = contentDescription
        self.keywords = keywords
        self.authorNames = authorNames
    }
}

/// A window of a hit's description around its best match (about ``SearchHighlighter/snippetWords`` words, `…`
/// where it was cut), with the ranges that matched in the window's own text.
public struct SearchSnippet: Sendable, Hashable, Codable {
    public var text: String
    public var highlights: [TextRange]

    public init(text: String, highlights: [TextRange]) {
        self.text = text
        self.highlights = highlights
    }
}
