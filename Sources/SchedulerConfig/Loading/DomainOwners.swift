/// The domains the sources read so far own, to find a new one that overlaps one of them (equal, inside, or holding
/// it) in time proportional to its number of parts, not to the number of sources: a config of thousands of sources
/// loads in linear time.
struct DomainOwners {
    /// Each owned domain, and each of its ancestors, with the source and the domain that make it taken.
    private var owned: [String: (domain: String, source: String)] = [:]
    private var ancestors: [String: (domain: String, source: String)] = [:]

    /// The source and domain `domain` overlaps, if any.
    func overlapping(_ domain: String) -> (domain: String, source: String)? {
        if let owner = owned[domain] ?? ancestors[domain] { return owner }
        return Self.ancestors(of: domain).lazy.compactMap { owned[$0] }.first
    }

    mutating func add(_ domain: String, source: String) {
        owned[domain] = (domain, source)
        for ancestor in Self.ancestors(of: domain) where ancestors[ancestor] == nil { ancestors[ancestor] = (domain, source) }
    }

    /// `com.shop.fr` → `com`, `com.shop`.
    private static func ancestors(of domain: String) -> [String] {
        let parts = domain.split(separator: ".", omittingEmptySubsequences: false)
        return (1..<max(parts.count, 1)).map { parts[..<$0].joined(separator: ".") }
    }
}
