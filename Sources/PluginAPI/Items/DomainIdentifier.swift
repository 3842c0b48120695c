/// The syntax and hierarchy of domain identifiers: dot-separated segments of letters, digits, `-` and `_`.
///
/// `com.shop` contains `com.shop.fr` and everything under it, but not `com.shopping`.
public enum DomainIdentifier {
    /// The longest domain identifier, in bytes.
    public static let maxBytes = 255

    /// Whether `domain` is well formed: non-empty segments of ASCII letters, digits, `-` or `_`, joined by dots,
    /// at most `maxBytes` long.
    public static func isValid(_ domain: String) -> Bool {
        guard !domain.isEmpty, domain.utf8.count <= maxBytes else { return false }
        var segmentLength = 0
        for byte in domain.utf8 {
            switch byte {
            case UInt8(ascii: "."):
                guard segmentLength > 0 else { return false }
                segmentLength = 0
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                segmentLength += 1
            default:
                return false
            }
        }
        return segmentLength > 0
    }

    /// Whether `domain` is `ancestor` itself or lies anywhere under it.
    public static func isWithin(_ domain: String, _ ancestor: String) -> Bool {
        domain == ancestor || domain.hasPrefix(ancestor + ".")
    }

    /// The reason `domain` is not valid, for error messages.
    public static func syntaxProblem(_ domain: String) -> String {
        let shown = domain.utf8.count > 80 ? "\(domain.prefix(60))…" : domain
        if domain.utf8.count > maxBytes {
            return "'\(shown)' is not a domain identifier: it is \(domain.utf8.count) bytes long, over the limit of \(maxBytes)"
        }
        return "'\(shown)' is not a domain identifier: use dot-separated segments of letters, digits, '-' or '_', such as 'com.shop.categories'"
    }
}
