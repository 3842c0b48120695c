/// How a search folds hits that belong together into one.
public enum SearchDistinct: String, Sendable, Hashable, CaseIterable, Codable {
    /// At most one hit a page: the best of an item and the items of its domain naming it their
    /// `relatedUniqueIdentifier` (a documentation page and its sections); `total` counts pages.
    case page

    /// The page an item belongs to, as every store groups it: its domain, a space (which no domain holds), then its
    /// `relatedUniqueIdentifier`, else its own identifier. Within the domain, so that no source's item can join another
    /// domain's page. The stores' SQL writes the same (`domain || ' ' || coalesce(related, unique)`).
    package static func page(domain: String, related: String?, unique: String) -> String {
        domain + " " + (related ?? unique)
    }

    /// The folding `text` names, or an error listing them.
    public static func named(_ text: String) throws(SearchQueryError) -> SearchDistinct {
        guard let distinct = SearchDistinct(rawValue: text) else {
            let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
            throw SearchQueryError(parameter: "distinct", reason: "unknown value '\(shown)'; the values are \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return distinct
    }
}
