public import Indexing

/// The `search:` section of `scheduler.yaml`: how searches treat what people type.
public struct SearchSettings: Sendable, Hashable {
    /// The typos forgiven (`search.typos`); one from 5 letters, two from 9, unless set.
    public var typos: TypoTolerance = .standard
    /// The words and phrases that find each other (`search.synonyms`); none unless set.
    public var synonyms: Synonyms = .none
    /// How fast the lift of opened items fades (`search.popularityHalfLife`, 14 days unless set); `nil` when
    /// `search.popularity` is `false` (``Popularity``).
    public var popularityHalfLife: Duration? = Popularity.standardHalfLife
    /// How long open counts are kept (`search.analyticsRetention`, 90 days unless set): older days are deleted.
    public var analyticsRetention: Duration = .seconds(90 * 86_400)
    /// Which fields' words the SQLite service keeps in memory for search (`search.postings`, `all` unless set); read
    /// at start.
    public var postings: SearchPostingsFields = .all
    /// Megabytes of candidate rows the SQLite index (or a replica's search copy) keeps for the next searches
    /// (`search.rowCacheMegabytes`, 0: none); `nil` unless set: 512, or a sixteenth of the machine's memory when that is
    /// less. Read at start.
    public var rowCacheMegabytes: Int?
    /// The web origins (`https://shop.example`, lowercased) whose pages may call search, items and opens from the
    /// browser (`search.cors.origins`); empty: none, no cross-origin answer at all.
    public var corsOrigins: Set<String> = []
    /// Who may search and read items (`search.access`, `public` unless set).
    public var access: SearchAccess = .public
    /// Searches a minute a search key, and a tenant token's user, may make on each replica (`search.rateLimit`).
    public var rateLimit = SearchRateLimits()

    public init() {}
}

/// Who may call the endpoints that reveal items: search, items, thumbnails and opens.
public enum SearchAccess: String, Sendable, Hashable, CaseIterable {
    /// Whoever reaches `service.listen`: the service is private, or its items are public.
    case `public`
    /// A search key or a tenant token signed with one (`Authorization: Bearer …`); operators through the console
    /// and the command line.
    case keys
}

/// `search.rateLimit`: searches a minute, on each replica, per search key (its tokens included) and per tenant
/// token subject (a token's `sub`, or the token itself).
public struct SearchRateLimits: Sendable, Hashable {
    public var perKey = 6_000
    public var perUser = 300

    public init() {}
}
