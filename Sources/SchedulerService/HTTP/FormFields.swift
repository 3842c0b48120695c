import Foundation
import Hummingbird

/// Fields as HTML forms and most HTTP clients encode them (`application/x-www-form-urlencoded`): in a console form's
/// body and in a query string alike, `+` is a space and `%2B` a plus. A field whose name or value is not valid
/// percent-encoding is left out, and the first of a repeated name is kept.
enum FormFields {
    static func decode(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String? {
                // Most names and values hold neither: taken as they are, without Foundation's two passes (a search's
                // parameters are read on every request, cached ones included).
                guard part.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(part) }
                return part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = decoded(parts[0]), let value = parts.count == 2 ? decoded(parts[1]) : "", fields[name] == nil else { continue }
            fields[name] = value
        }
        return fields
    }
}

extension Request {
    /// The query string's fields, read as a form (``FormFields``): `/search?q=red+shoes` searches for "red shoes".
    var queryFields: [String: String] { FormFields.decode(uri.query ?? "") }
}
