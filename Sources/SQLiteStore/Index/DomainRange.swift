import GRDB
import Indexing

/// The SQL condition "this domain or any domain under it", as an index range scan:
/// every domain under `com.shop` sorts between `com.shop.` and `com.shop/` ('/' follows '.').
struct DomainRange {
    let domain: String

    /// `domainIdentifier = ? OR domainIdentifier BETWEEN …`, for the column `column`: the same text for every domain,
    /// so one prepared statement serves them all.
    static func condition(column: String = "domainIdentifier") -> String {
        "(\(column) = ? OR (\(column) >= ? AND \(column) < ?))"
    }

    var arguments: StatementArguments {
        [domain, domain + ".", domain + "/"]
    }
}
