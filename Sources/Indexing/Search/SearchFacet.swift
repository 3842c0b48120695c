import Foundation

/// A way to count a search's matches by category, as search boxes show "Help (12) · Blog (3)".
public enum SearchFacet: String, Sendable, Hashable, CaseIterable, Codable {
    /// Matches per exact domain (`com.shop.help.en`).
    case domain
    /// Matches per domain, each counting its own items and those of every domain under it (`com`, `com.shop`, …).
    case domainTree
    /// Matches per content type.
    case type
    /// Matches per documentation version (items without one are not counted).
    case version

    /// Matches are counted up to this many; past it the counts are of the first ones, in priority order.
    public static let countedMatches = 10_000

    /// The facets `text` names, comma-separated (`domain,type`), once each in the order given.
    public static func list(_ text: String) throws(SearchQueryError) -> [SearchFacet] {
        var facets: [SearchFacet] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let facet = SearchFacet(rawValue: name) else {
                let shown = name.count > 40 ? name.prefix(40) + "…" : Substring(name)
                throw SearchQueryError(
                    parameter: "facets",
                    reason: "unknown facet '\(shown)'; the facets are \(allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            if !facets.contains(facet) { facets.append(facet) }
        }
        return facets
    }
}

/// Counts matches for the facets a query asks, one match at a time, up to ``SearchFacet/countedMatches``.
package struct FacetCounter {
    private let facets: [SearchFacet]
    private var counts: [SearchFacet: [String: Int]] = [:]
    private var matches = 0

    package init(facets: [SearchFacet]) {
        self.facets = facets
    }

    /// The counts of the walked matches (``WalkedMatch``).
    package init(facets: [SearchFacet], counting walked: [WalkedMatch]) {
        self.init(facets: facets)
        for match in walked { add(domain: match.domain, contentType: match.contentType, version: match.version) }
    }

    /// Counts one match; past the limit, only notes that there was one.
    package mutating func add(domain: String, contentType: String, version: String?) {
        matches += 1
        guard matches <= SearchFacet.countedMatches else { return }
        for facet in facets {
            switch facet {
            case .domain: counts[facet, default: [:]][domain, default: 0] += 1
            case .type: counts[facet, default: [:]][contentType, default: 0] += 1
            case .version: if let version { counts[facet, default: [:]][version, default: 0] += 1 }
            case .domainTree:
                var end = domain.endIndex
                while true {
                    counts[facet, default: [:]][String(domain[..<end]), default: 0] += 1
                    guard let dot = domain[..<end].lastIndex(of: ".") else { break }
                    end = dot
                }
            }
        }
    }

    /// `results` with the counts, and whether they cover every match.
    package func applied(to results: SearchResults) -> SearchResults {
        var results = results
        results.facets = Dictionary(uniqueKeysWithValues: facets.map { ($0.rawValue, counts[$0] ?? [:]) })
        results.facetsAreExact = matches <= SearchFacet.countedMatches
        return results
    }
}
