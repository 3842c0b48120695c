/// The order of a search's hits.
public enum SearchSort: String, Sendable, Hashable, CaseIterable, Codable {
    /// Best match first (the ranking rules of docs/search.md).
    case relevance
    /// The latest `contentCreationDate` first, items without one last; equal dates by relevance.
    case newest

    /// A newest-first search orders up to this many matches (the first in priority order, as facets count them);
    /// when more match, its total says so (`totalIsExact` false) and the page is the newest among these (with
    /// ``SearchDistinct/page``, the pages of these).
    public static let newestConsideredMatches = WalkedMatch.rowsRead - 1

    /// The order `text` names, or an error listing the orders.
    public static func named(_ text: String) throws(SearchQueryError) -> SearchSort {
        guard let sort = SearchSort(rawValue: text) else {
            let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
            throw SearchQueryError(parameter: "sort", reason: "unknown order '\(shown)'; the orders are \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return sort
    }
}
