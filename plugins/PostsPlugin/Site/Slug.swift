import Foundation

/// How each generator turns a name into a piece of URL.
enum Slug {
    /// Jekyll's `pretty` slug, case kept (its `:title`): characters other than letters, digits and `._~!$&'()+,;=@`
    /// become `-`, runs of `-` collapse, and none lead or trail.
    static func jekyll(_ name: Substring) -> String {
        let kept = Set("._~!$&'()+,;=@")
        return hyphenated(name) { $0.isLetter || $0.isNumber || kept.contains($0) }
    }

    /// Jekyll's `default` slug (its `:name` and `:slug`): lowercased, every run of characters other than letters and
    /// digits made one `-`, none leading or trailing.
    static func jekyllDefault(_ name: Substring) -> String {
        hyphenated(Substring(name.lowercased())) { $0.isLetter || $0.isNumber }
    }

    /// Hugo's path rule: lowercased (`disablePathToLower` off), spaces become `-`; other characters stay.
    static func hugo(_ name: Substring) -> String {
        hyphenated(Substring(name.lowercased())) { !$0.isWhitespace && $0 != "?" && $0 != "#" && $0 != "%" }
    }

    /// Zola's `slugify.paths = "on"`: accents removed, lowercased, characters other than ASCII letters and digits
    /// become `-`, runs collapse.
    static func zola(_ name: Substring) -> String {
        let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        return hyphenated(Substring(folded)) { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// `name` with every run of characters `keep` refuses replaced by one `-`, trimmed of `-`.
    private static func hyphenated(_ name: Substring, keep: (Character) -> Bool) -> String {
        var slug = ""
        var pendingHyphen = false
        for character in name {
            if keep(character) && character != "-" {
                if pendingHyphen, !slug.isEmpty { slug.append("-") }
                pendingHyphen = false
                slug.append(character)
            } else {
                pendingHyphen = true
            }
        }
        return slug
    }

    /// A title from a slug, as Jekyll makes one for a post without a title: `jekyll-3-0-released` → `Jekyll 3 0 Released`.
    static func titleized(_ slug: Substring) -> String {
        slug.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == " " }).map { word in
            word.prefix(1).uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }
}
