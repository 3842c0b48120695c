import PluginAPI

/// Who is searching, as far as what they may find: the domains a search key or tenant token reaches. Every store
/// applies it where it applies the `domain=` filter (in SQL, in the postings' row reads, in the memory twin), so
/// nothing outside it reaches a hit, a total or a facet count, and the result cache keys on it.
public struct SearchAudience: Sendable, Hashable {
    /// The domains the searcher may find, each with the domains under it, without one under another and in order;
    /// `nil`: every domain (a public service, an operator).
    public private(set) var domains: [String]?

    /// Whoever may search everything: a service whose search is public, an operator.
    public static let everyone = SearchAudience(domains: nil)

    /// An audience that may find `domains` (each with the domains under it); `nil` for every domain.
    public init(domains: [String]?) {
        self.domains = domains.map(Self.outermost)
    }

    /// `domains` without those under another of them, sorted: one form per set, for the result cache's key.
    static func outermost(_ domains: [String]) -> [String] {
        let unique = Set(domains)
        return unique.filter { domain in !unique.contains { $0 != domain && DomainIdentifier.isWithin(domain, $0) } }.sorted()
    }

    /// The domains a search asking for `domain` (or for every domain, `nil`) reads: `nil` for every domain, an empty
    /// list for none at all (the domain asked is outside the audience's).
    public func searched(asking domain: String?) -> [String]? {
        guard let domains else { return domain.map { [$0] } }
        guard let domain else { return domains }
        if domains.contains(where: { DomainIdentifier.isWithin(domain, $0) }) { return [domain] }
        return domains.filter { DomainIdentifier.isWithin($0, domain) }
    }

    /// Whether an item of `domain` may be found.
    public func mayFind(domain: String) -> Bool {
        domains?.contains { DomainIdentifier.isWithin(domain, $0) } ?? true
    }
}
