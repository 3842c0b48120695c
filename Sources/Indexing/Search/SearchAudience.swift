public import PluginAPI

/// Who is searching, as far as what they may find: the domains a search key or tenant token reaches, and the groups
/// a tenant token names for the items only some may find (an item's `access`). Every store applies it where it
/// applies the `domain=` filter (in SQL, in the postings' row reads, in the memory twin), so nothing outside it
/// reaches a hit, a total or a facet count, and the result cache keys on it.
public struct SearchAudience: Sendable, Hashable {
    /// The domains the searcher may find, each with the domains under it, without one under another and in order;
    /// `nil`: every domain.
    public private(set) var domains: [String]?
    /// The groups the searcher is in, sorted and without repeats: an item with `access` is found only when they share
    /// a name with it. `nil`: every item, whatever its `access` (operators).
    public private(set) var groups: [String]?

    /// Whoever reaches a search that asks for no key (`search.access: public`): every domain, the items without
    /// `access` only.
    public static let anyone = SearchAudience(domains: nil, groups: [])
    /// Operators (the admin token, a console session, the command line): every item.
    public static let operators = SearchAudience(domains: nil, groups: nil)

    /// An audience that may find `domains` (each with the domains under it; `nil` for every domain) and the items
    /// whose `access` names one of `groups` (`nil`: every item).
    public init(domains: [String]?, groups: [String]?) {
        self.domains = domains.map(Self.outermost)
        // By their bytes, as the stores compare them: two spellings `String` holds equal ("é" and "e" + U+0301)
        // are two groups.
        self.groups = groups.map { names in Set(names.map { Array($0.utf8) }).sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) } }
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

    /// Whether an item whose `access` is `access` may be found: one without is; one with, by a group it names.
    public func mayFind(access: [String]?) -> Bool {
        guard let access, let groups else { return true }
        return access.contains { name in groups.contains { $0.utf8.elementsEqual(name.utf8) } }
    }

    /// Whether `item` may be found: its domain and its `access`.
    public func mayFind(_ item: SearchableItem) -> Bool {
        mayFind(domain: item.domainIdentifier) && mayFind(access: item.access)
    }

    /// ``mayFind(access:)`` of an `access` as the stores keep it (``KeywordList``, `nil` for none).
    package func mayFind(storedAccess: String?) -> Bool {
        guard let storedAccess, groups != nil else { return true }
        return mayFind(access: KeywordList.decode(storedAccess))
    }
}
