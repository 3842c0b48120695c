
/// The URL schemes `/open` may redirect a browser to: a result opens only where the operator allows.
public enum OpenSchemes {
    /// Schemes never redirected to, whatever the configuration says: a browser would run what they hold or read a
    /// local resource.
    public static let neverRedirected: Set<String> = ["javascript", "vbscript", "data", "file", "blob", "filesystem", "about", "view-source"]

    /// The schemes allowed by `configuration`: `service.openSchemes` when set, else `https`, `http` and the scheme of
    /// every `deepLink` template of its sources and experiment variants; never one of ``neverRedirected``.
    public static func allowed(in configuration: SchedulerConfiguration) -> Set<String> {
        if let chosen = configuration.scheduler.openSchemes { return chosen.subtracting(neverRedirected) }
        let templates = configuration.scheduler.sources.compactMap(\.settings.deepLink)
            + configuration.experiments.flatMap { $0.variants.compactMap(\.overrides.deepLink) }
        return Set(["https", "http"] + templates.compactMap(scheme(of:))).subtracting(neverRedirected)
    }

    /// The scheme of `address`, lowercased: the text before its first `:` when it is a scheme name; `nil` otherwise
    /// (no colon, or anything else before it, such as a space, a control character or a slash).
    public static func scheme(of address: String) -> String? {
        guard let colon = address.firstIndex(of: ":") else { return nil }
        // Checked before lowercasing: some non-ASCII letters lowercase to ASCII ones (the Kelvin sign to `k`).
        let name = String(address[..<colon])
        return isSchemeName(name) ? name.lowercased() : nil
    }

    /// Whether `name` is a URL scheme name (RFC 3986): an ASCII letter, then letters, digits, `+`, `-` or `.`.
    public static func isSchemeName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
    }
}

extension OpenSchemes {
    /// What a redirect to `address` puts in its `Location` when the scheme of `address` is in `allowed`: the address
    /// with spaces and non-ASCII bytes percent-encoded. `nil` when it must not be redirected to: its scheme is not
    /// allowed (or not a scheme), or it holds a control character, which browsers strip and so could hide a scheme.
    public static func location(of address: String, allowed: Set<String>) -> String? {
        guard let scheme = scheme(of: address), allowed.contains(scheme), !neverRedirected.contains(scheme) else { return nil }
        var location = ""
        for byte in address.utf8 {
            if byte < 0x20 || byte == 0x7F { return nil }
            if byte == 0x20 || byte > 0x7F {
                location += "%" + String(byte, radix: 16, uppercase: true)
            } else {
                location.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return location
    }
}
