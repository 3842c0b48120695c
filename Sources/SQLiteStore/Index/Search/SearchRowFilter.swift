import Foundation
import GRDB
import Indexing

/// Which rows a search may return, as one SQL condition on `item` with its arguments: not expired, in a live domain,
/// within the domains it reads (``SearchQuery/searchedDomains``: the one asked, within the searcher's) and of the
/// content type asked.
struct SearchRowFilter {
    let sql: String
    let arguments: StatementArguments
    /// Whether the rows recent searches read serve this search (``CandidateRowCache``): they were read with the
    /// live-domain condition alone, so only a search that narrows nothing more may take them.
    let sharesRows: Bool

    /// The rows of live domains, expired or not: what the shared rows are read with.
    static let liveRows = SearchRowFilter(sql: PurgedDomains.liveCondition(), arguments: [], sharesRows: true)

    /// The rows `query` may return at `now`.
    init(_ query: SearchQuery, now: Date) {
        var conditions = ["item.expirationDate > ?", PurgedDomains.liveCondition()]
        var arguments: StatementArguments = [now.timeIntervalSince1970]
        let domains = query.searchedDomains
        if let domains {
            let ranges = domains.map { _ in DomainRange.condition(column: "item.domainIdentifier") }
            conditions.append(ranges.isEmpty ? "0" : "(\(ranges.joined(separator: " OR ")))")
            for domain in domains { arguments += DomainRange(domain: domain).arguments }
        }
        if let contentType = query.contentType {
            conditions.append("item.contentType = ?")
            arguments += [contentType]
        }
        self.init(sql: conditions.joined(separator: " AND "), arguments: arguments, sharesRows: domains == nil && query.contentType == nil)
    }

    private init(sql: String, arguments: StatementArguments, sharesRows: Bool) {
        self.sql = sql
        self.arguments = arguments
        self.sharesRows = sharesRows
    }
}
