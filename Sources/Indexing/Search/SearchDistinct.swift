/// How a search folds hits that belong together into one.
public enum SearchDistinct: String, Sendable, Hashable, CaseIterable, Codable {
    /// At most one hit a page: the best of an item and the items naming it their `relatedUniqueIdentifier` (a
    /// documentation page and its sections); `total` counts pages.
    case page

    /// The folding `text` names, or an error listing them.
    public static func named(_ text: String) throws(SearchQueryError) -> SearchDistinct {
        guard let distinct = SearchDistinct(rawValue: text) else {
            let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
            throw SearchQueryError(parameter: "distinct", reason: "unknown value '\(shown)'; the values are \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return distinct
    }
}
