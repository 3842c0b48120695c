/// One match of a search's last level as a store reads it when it walks the matches in priority order, up to
/// ``rowsRead``: what facets count and a newest-first search orders (``NewestOrder``), read once for both.
package struct WalkedMatch: Sendable {
    package var id: Int64
    /// The creation date, in seconds since 1970.
    package var created: Double?
    package var domain: String
    package var contentType: String
    /// Its documentation version, if any (``SearchFacet/version``).
    package var version: String?
    /// The page it belongs to: its `relatedUniqueIdentifier`, else its own identifier (``SearchDistinct/page``).
    package var page: String

    package init(id: Int64, created: Double?, domain: String, contentType: String, version: String?, page: String) {
        self.id = id
        self.created = created
        self.domain = domain
        self.contentType = contentType
        self.version = version
        self.page = page
    }

    /// How many matches a walk reads at most: one more than facets count and newest-first orders, to know whether
    /// there were more.
    package static let rowsRead = SearchFacet.countedMatches + 1

    /// Whether `query` needs the walk.
    package static func isNeeded(by query: SearchQuery) -> Bool {
        query.sort == .newest || !query.facets.isEmpty
    }
}
