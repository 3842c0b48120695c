import Foundation

/// The `id` each generator gives the headings of a page, in document order, with its default settings:
///
/// - **Jekyll** (kramdown's GFM parser, `auto_ids`): the heading's text lowercased (Ruby's full case mapping, one
///   character at a time), every character but letters, marks, digits, `_`, `-`, space and tab removed, spaces and
///   tabs turned into `-`; the second heading making the same id gets `-1`, the third `-2`, whatever ids exist.
/// - **Hugo** (Goldmark): by the site's `autoHeadingIDType` (``HugoHeadings``; `github` by default: the text trimmed,
///   `-` and space become `-`, letters, digits and `_` are lowercased, the rest removed); `heading` when nothing is
///   left; an id already given (an explicit one above included) gets the first free `-1`, `-2`…; none at all with
///   `autoHeadingID = false`
/// - **Zola** (`slugify.anchors = "on"`): the text slugified as Zola's paths are (``Slug/zola(_:)``); an id given
///   anywhere on the page (every explicit one is reserved first) gets `-1`, `-2`…
///
/// An explicit `{#id}` at the end of a heading wins in every generator. Which text each reads (code, emphasis, links,
/// inline HTML, typographic dashes) is ``HeadingText``'s business.
struct HeadingAnchors {
    let flavor: SiteFlavor
    let hugo: HugoHeadings
    /// Every id given so far, and (Zola) every explicit id of the page.
    private var given: Set<String>
    /// Jekyll: how many headings made each id before the counter. Hugo and Zola: the suffix to try first for each base
    /// (every lower one is taken: ids are only ever added), so 10,000 equal headings cost 10,000 steps, not 50 million.
    private var made: [String: Int] = [:]

    /// The anchors of one page, whose explicit ids are `explicit` (Zola reserves them all before the first heading).
    init(flavor: SiteFlavor, explicit: [String], hugo: HugoHeadings = HugoHeadings()) {
        self.flavor = flavor
        self.hugo = hugo
        given = flavor == .zola ? Set(explicit) : []
    }

    /// The id of the next heading: `explicit` when it has one, else made from `text` (``HeadingText/idText``).
    mutating func anchor(text: String, explicit: String?) -> String {
        if let explicit {
            given.insert(explicit)
            return explicit
        }
        let id: String
        switch flavor {
        case .jekyll:
            let base = Self.kramdownID(text)
            let count = made[base, default: -1] + 1
            made[base] = count
            id = count > 0 ? "\(base)-\(count)" : base
        case .hugo:
            guard hugo.autoHeadingID else { return "" }
            id = free(hugo.id(of: text))
        case .zola:
            // Zola transliterates what the plugin cannot fold (CJK, emoji): no anchor rather than a wrong `-1`.
            let base = Slug.zola(text[...])
            guard !base.isEmpty else { return "" }
            id = free(base)
        }
        given.insert(id)
        return id
    }

    /// `base` when no heading has it, else `base-n` for the first free `n`.
    private mutating func free(_ base: String) -> String {
        guard given.contains(base) else { return base }
        var number = made[base, default: 1]
        while given.contains("\(base)-\(number)") { number += 1 }
        made[base] = number + 1
        return "\(base)-\(number)"
    }

    /// kramdown-parser-gfm's `generate_gfm_header_id`, before its counter.
    static func kramdownID(_ text: String) -> String {
        var id = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            for lower in scalar.properties.lowercaseMapping.unicodeScalars {
                if lower == " " || lower == "\t" {
                    id.append("-")
                } else if lower == "-" || isRubyWord(lower) {
                    id.append(lower)
                }
            }
        }
        return String(id)
    }

    /// Onigmo's `\p{Word}` (Unicode's `\w`): alphabetic characters (letters, letter numbers such as `〇` and `Ⅻ`,
    /// circled letters), marks, decimal digits, connector punctuation and the joiners.
    private static func isRubyWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isAlphabetic || scalar.properties.isJoinControl { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
        default: return false
        }
    }
}

extension Unicode.Scalar.Properties {
    /// Go's `unicode.IsLetter`: the general categories L*.
    var isAlphabeticLetter: Bool {
        switch generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }
}
