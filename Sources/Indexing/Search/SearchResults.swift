public import Foundation
public import PluginAPI

/// One page of search results and the number of matches in all.
public struct SearchResults: Sendable, Hashable, Codable {
    /// How many live items match, across all pages; a lower bound when ``totalIsExact`` is false.
    public var total: Int { didSet { rendering = nil } }
    /// False when matches were counted only up to a limit (a thousand, or the page's end if deeper).
    public var totalIsExact: Bool { didSet { rendering = nil } }
    /// This page's hits, best first.
    public var hits: [SearchHit] { didSet { rendering = nil } }
    /// For each facet the query asked (``SearchQuery/facets``), by its name: the matches per value; `nil` when it
    /// asked none.
    public var facets: [String: [String: Int]]? { didSet { rendering = nil } }
    /// Whether ``facets`` count every match (false past ``SearchFacet/countedMatches``); `nil` without facets.
    public var facetsAreExact: Bool? { didSet { rendering = nil } }
    /// Where the rendering of these results is kept once made, for results the result cache holds (``RenderedResults``);
    /// dropped when any of the values above changes. Neither encoded nor compared.
    package var rendering: RenderedResults?

    private enum CodingKeys: String, CodingKey {
        case total, totalIsExact, hits, facets, facetsAreExact
    }

    public static func == (left: SearchResults, right: SearchResults) -> Bool {
        (left.total, left.totalIsExact, left.hits, left.facets, left.facetsAreExact)
            == (right.total, right.totalIsExact, right.hits, right.facets, right.facetsAreExact)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(total)
        hasher.combine(totalIsExact)
        hasher.combine(hits)
        hasher.combine(facets)
        hasher.combine(facetsAreExact)
    }

    public init(total: Int, totalIsExact: Bool, hits: [SearchHit]) {
        self.total = total
        self.totalIsExact = totalIsExact
        self.hits = hits
    }
}

/// An item found by a search: what a caller shows, the deep link to open it, and its score (higher is better).
public struct SearchHit: Sendable, Hashable, Codable {
    public var uniqueIdentifier: String
    public var domainIdentifier: String
    public var contentType: String
    public var title: String?
    public var displayName: String?
    public var contentDescription: String?
    public var keywords: [String]
    public var authorNames: [String]
    public var contentCreationDate: Date?
    public var contentModificationDate: Date?
    public var contentURL: String?
    /// The item this one is part of: a section's page.
    public var relatedUniqueIdentifier: String?
    /// Where the item's thumbnail is served, when it has an address (an item's `thumbnailData` is not returned).
    public var thumbnailURL: String?
    public var rankingHint: Int?
    /// The documentation version the item belongs to, if any (``SearchVersion``).
    public var version: String?
    public var expirationDate: Date
    public var score: Double
    /// Where the fields matched the query's words; set by every store's search.
    public var highlights: SearchHighlights?
    /// A window of the description around its best match; `nil` without a description.
    public var snippet: SearchSnippet?
    /// With `distinct=page` (relevance order), the page's other matching items, best first, at most 3: its sections,
    /// or the page's own item when one of its sections is the hit. Empty otherwise.
    public var sections: [SearchHit] = []

    /// The hit of a stored `item` (whose expiration date every store sets), with its `score`.
    public init(_ item: SearchableItem, score: Double) {
        uniqueIdentifier = item.uniqueIdentifier
        domainIdentifier = item.domainIdentifier
        contentType = item.contentType
        title = item.title
        displayName = item.displayName
        contentDescription = item.contentDescription
        keywords = item.keywords
        authorNames = item.authorNames
        contentCreationDate = item.contentCreationDate
        contentModificationDate = item.contentModificationDate
        contentURL = item.contentURL
        relatedUniqueIdentifier = item.relatedUniqueIdentifier
        thumbnailURL = item.thumbnailURL
        rankingHint = item.rankingHint
        version = item.version
        expirationDate = item.expirationDate ?? .distantFuture
        self.score = score
    }

    /// Encodes every key, absent values as `null`, so clients always see the same fields.
    public func encode(to encoder: any Encoder) throws {
        try encodeItemFields(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(score, forKey: .score)
        try container.encode(highlights, forKey: .highlights)
        try container.encode(snippet, forKey: .snippet)
        try container.encode(sections, forKey: .sections)
    }

    /// Encodes the keys of the item's own fields (not the score, highlights and snippet), absent values as `null`:
    /// what a hit and an item looked up (``ItemDocument``) both show.
    func encodeItemFields(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uniqueIdentifier, forKey: .uniqueIdentifier)
        try container.encode(domainIdentifier, forKey: .domainIdentifier)
        try container.encode(contentType, forKey: .contentType)
        try container.encode(title, forKey: .title)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(contentDescription, forKey: .contentDescription)
        try container.encode(keywords, forKey: .keywords)
        try container.encode(authorNames, forKey: .authorNames)
        try container.encode(contentCreationDate, forKey: .contentCreationDate)
        try container.encode(contentModificationDate, forKey: .contentModificationDate)
        try container.encode(contentURL, forKey: .contentURL)
        try container.encode(relatedUniqueIdentifier, forKey: .relatedUniqueIdentifier)
        try container.encode(thumbnailURL, forKey: .thumbnailURL)
        try container.encode(rankingHint, forKey: .rankingHint)
        try container.encode(version, forKey: .version)
        try container.encode(expirationDate, forKey: .expirationDate)
    }
}
