/// A Jekyll permalink: a path template with `:placeholders` (`/:categories/:year/:month/:day/:title/`) or one of
/// Jekyll's named styles (`date`, `pretty`, `ordinal`, `none`).
struct Permalink: Sendable, Hashable {
    /// Jekyll's default style, `date` (`/:categories/:year/:month/:day/:title.html`), as its documentation gives it.
    static let standard = Permalink(validating: "date")!

    static let styles = [
        "date": "/:categories/:year/:month/:day/:title:output_ext",
        "pretty": "/:categories/:year/:month/:day/:title/",
        "ordinal": "/:categories/:year/:y_day/:title:output_ext",
        "none": "/:categories/:title:output_ext",
    ]
    static let placeholders: Set<String> = [
        "year", "short_year", "month", "i_month", "day", "i_day", "y_day", "hour", "minute", "second", "title", "slug",
        "categories", "output_ext", "collection", "path", "name",
    ]

    /// The permalink of a collection's documents without one of their own or their collection's: `/:collection/:path`,
    /// then `/` when the site's permalink style (`style`, Jekyll's `date` when `nil`) is `pretty` or ends in `/`,
    /// `:output_ext` for `date`, `ordinal`, `none` or one ending in it (Jekyll's `add_permalink_suffix`).
    static func collectionDefault(siteStyle style: String?) -> Permalink {
        let style = style ?? "date"
        let suffix = style == "pretty" || style.hasSuffix("/") ? "/"
            : ["date", "ordinal", "none"].contains(style) || style.hasSuffix(":output_ext") ? ":output_ext" : ""
        return Permalink(validating: "/:collection/:path" + suffix)!
    }

    let template: String

    /// The template, or `nil` when it is neither a style nor a path whose placeholders are known. A path without a
    /// leading `/` gets one, as Jekyll serves it (`my_category/post` is `/my_category/post`).
    init?(validating text: String) {
        var template = Self.styles[text] ?? text
        if !template.hasPrefix("/") { template = "/" + template }
        guard !text.isEmpty, Self.unknownPlaceholder(in: template) == nil else { return nil }
        self.template = template
    }

    /// The first `:name` in `template` that is not a placeholder.
    static func unknownPlaceholder(in template: String) -> String? {
        var rest = Substring(template)
        while let colon = rest.firstIndex(of: ":") {
            let name = rest[rest.index(after: colon)...].prefix { $0.isLetter || $0 == "_" }
            if !placeholders.contains(longestPlaceholder(in: name) ?? "") { return String(name) }
            rest = rest[rest.index(after: colon)...]
        }
        return nil
    }

    /// The longest placeholder `name` starts with (`:title` in `:title.html`, `:y_day`).
    private static func longestPlaceholder(in name: Substring) -> String? {
        (1...max(name.count, 1)).reversed().lazy.map { String(name.prefix($0)) }.first { placeholders.contains($0) }
    }

    /// The URL path with each placeholder replaced by its value; empty parts collapse (`/:categories/` without
    /// categories), as in Jekyll.
    func path(with values: [String: String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let colon = rest.firstIndex(of: ":") {
            result += rest[..<colon]
            let after = rest[rest.index(after: colon)...]
            let name = Self.longestPlaceholder(in: after.prefix { $0.isLetter || $0 == "_" }) ?? ""
            result += values[name] ?? ""
            rest = after.dropFirst(name.count)
        }
        result += rest
        return Self.collapsingSlashes(result)
    }

    /// `path` with each run of `/` made one, as generators write a permalink whose parts are empty.
    static func collapsingSlashes(_ path: String) -> String {
        var collapsed = ""
        for character in path where !(character == "/" && collapsed.last == "/") { collapsed.append(character) }
        return collapsed
    }
}
