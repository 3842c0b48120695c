import Foundation
import GRDB
import Indexing

/// Which rows a search may return, as one SQL condition on `item` with its arguments: not expired, in a live domain,
/// within the domains it reads (``SearchQuery/searchedDomains``: the one asked, within the searcher's), without
/// `access` or with one naming a group of the searcher's, of the content type asked and of the versions asked
/// (``SearchVersion``).
struct SearchRowFilter {
    let sql: String
    let arguments: StatementArguments
    /// Whether the rows recent searches read serve this search (``CandidateRowCache``): they were read with the
    /// live-domain condition alone, and hold each row's domain, `access` and whether its version is current, which the
    /// search checks itself (``SearchAudience``, ``SearchVersion/current``); a content type or a named version it does not.
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
        if let groups = query.audience.groups {
            conditions.append(Self.accessCondition(groups))
            if !groups.isEmpty { arguments += [KeywordList.encode(groups)] }
        }
        if let contentType = query.contentType {
            conditions.append("item.contentType = ?")
            arguments += [contentType]
        }
        var namesVersion = false
        switch query.version {
        case .current: conditions.append("item.isCurrentVersion")
        case .named(let version):
            conditions.append("item.version = ?")
            arguments += [version]
            namesVersion = true
        case .any: break
        }
        self.init(sql: conditions.joined(separator: " AND "), arguments: arguments, sharesRows: query.contentType == nil && !namesVersion)
    }

    /// "Without `access`, or with one naming one of `groups`" (given as one JSON array argument).
    private static func accessCondition(_ groups: [String]) -> String {
        guard !groups.isEmpty else { return "item.access IS NULL" }
        return "(item.access IS NULL OR EXISTS (SELECT 1 FROM json_each(item.access) WHERE value IN (SELECT value FROM json_each(?))))"
    }

    private init(sql: String, arguments: StatementArguments, sharesRows: Bool) {
        self.sql = sql
        self.arguments = arguments
        self.sharesRows = sharesRows
    }
}
