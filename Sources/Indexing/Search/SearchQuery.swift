import PluginAPI

/// What a user searches for: free text matched as word prefixes, optional filters, and a page.
///
/// Any text is accepted and treated as plain words; only the filters and the page are checked.
public struct SearchQuery: Sendable, Hashable {
    /// Largest page size accepted.
    public static let maxLimit = 1000
    /// Largest offset accepted: deeper pages are not a search use.
    public static let maxOffset = 10_000

    public var text: String
    /// Only items in this domain or under it.
    public var domain: String?
    /// Only items of exactly this content type.
    public var contentType: String?
    public var limit: Int
    public var offset: Int
    /// Counts of all matches to return beside the page (``SearchResults/facets``).
    public var facets: [SearchFacet]
    /// The order of the hits.
    public var sort: SearchSort
    /// Hits folded into one per page, or none.
    public var distinct: SearchDistinct?
    /// The typos forgiven when the words as typed match fewer than ``CandidateRanking/fewMatches`` items.
    public var typos: TypoTolerance
    /// The words and phrases that find each other (`search.synonyms`).
    public var synonyms: Synonyms
    /// How fast the lift of opened items fades (``Popularity``): opens this old count half; `nil` turns the lift off.
    public var popularityHalfLife: Duration?
    /// Who searches: the domains their key or token reaches, and their groups (``SearchAudience/anyone`` unless
    /// set: every domain, the items without `access`).
    public var audience: SearchAudience = .anyone
    /// The documentation versions read: the current ones and the unversioned items unless set.
    public var version: SearchVersion = .current

    /// Checks the filters and the page; throws ``SearchQueryError`` naming the parameter at fault.
    public init(
        text: String, domain: String? = nil, contentType: String? = nil, limit: Int = 20, offset: Int = 0,
        facets: [SearchFacet] = [], sort: SearchSort = .relevance, distinct: SearchDistinct? = nil, typos: TypoTolerance = .standard, synonyms: Synonyms = .none,
        popularityHalfLife: Duration? = Popularity.standardHalfLife
    ) throws(SearchQueryError) {
        if let domain, !DomainIdentifier.isValid(domain) {
            throw SearchQueryError(parameter: "domain", reason: DomainIdentifier.syntaxProblem(domain))
        }
        if let contentType, contentType.isEmpty {
            throw SearchQueryError(parameter: "type", reason: "must not be empty")
        }
        guard (1...Self.maxLimit).contains(limit) else {
            throw SearchQueryError(parameter: "limit", reason: "must be between 1 and \(Self.maxLimit) (got \(limit))")
        }
        guard (0...Self.maxOffset).contains(offset) else {
            throw SearchQueryError(parameter: "offset", reason: "must be between 0 and \(Self.maxOffset) (got \(offset))")
        }
        self.text = text
        self.domain = domain
        self.contentType = contentType
        self.limit = limit
        self.offset = offset
        self.facets = facets
        self.sort = sort
        self.distinct = distinct
        self.typos = typos
        self.synonyms = synonyms
        self.popularityHalfLife = popularityHalfLife
    }

    /// The domains the search reads, ``domain`` within the ``audience``'s: `nil` for every domain, empty for none.
    public var searchedDomains: [String]? { audience.searched(asking: domain) }

    /// The words of ``text``, with the synonym phrases they name.
    public var terms: SearchTerms { SearchTerms(text, synonyms: synonyms) }
}

/// A search parameter out of range or malformed.
public struct SearchQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The parameter's name as the command line and the HTTP API spell it.
    public var parameter: String
    public var reason: String
    public var description: String { "\(parameter): \(reason)" }
}
