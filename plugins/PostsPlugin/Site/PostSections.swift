import Foundation
import PluginAPI

/// The items of a page's sections (``MarkdownSections``), each pointing at its page: identifier and URL the page's
/// followed by `#` and the heading's anchor, the heading as title, the breadcrumb `Page › Section › Subsection` as
/// display name, the section's text as description, the page's dates, expiration and version.
struct PostSections {
    /// The sections' items, in page order.
    private(set) var items: [SearchableItem] = []
    /// Headings not made items, by reason: `over_limit` (past ``MarkdownSections/maxSections``), `no_anchor` (an empty
    /// id), `no_title` (nothing to show), `invalid` (an identifier or URL past the item limits).
    private(set) var leftOut: [String: Int] = [:]

    /// The breadcrumb's separator.
    static let separator = " › "

    /// The `rankingHint` of a page whose sections are indexed, and of its sections by heading level: DocSearch's
    /// hierarchy, where a page comes before its `##` sections and those before the `###` ones. A hint lifts the score
    /// a little (a page's title match over a heading's of the same words) and, above all, puts every page before
    /// every section in the order searches gather candidates in, so a page is never crowded out by the sections
    /// whose breadcrumb repeats its title.
    static let pageRankingHint = 10
    static func rankingHint(level: Int) -> Int? { level <= 2 ? 5 : nil }

    init() {}

    init(of page: SearchableItem, body: Substring, flavor: SiteFlavor, hugo: HugoHeadings, deepest: Int) {
        let (sections, overLimit) = MarkdownSections.split(body, flavor: flavor, hugo: hugo, deepest: deepest)
        if overLimit > 0 { leftOut["over_limit"] = overLimit }
        let limits = ItemLimits.standard
        for section in sections {
            guard !section.anchor.isEmpty else {
                leftOut["no_anchor", default: 0] += 1
                continue
            }
            guard !section.title.isEmpty else {
                leftOut["no_title", default: 0] += 1
                continue
            }
            var item = SearchableItem(
                uniqueIdentifier: page.uniqueIdentifier + "#" + section.anchor, domainIdentifier: page.domainIdentifier,
                contentType: page.contentType, title: section.title.cut(toUTF8Bytes: limits.maxShortTextBytes)
            )
            let trail = [page.title, section.parentTitle, section.title].compactMap { $0 }
            item.displayName = trail.joined(separator: Self.separator).cut(toUTF8Bytes: limits.maxShortTextBytes)
            item.contentDescription = section.text.isEmpty ? nil : section.text
            item.contentCreationDate = page.contentCreationDate
            item.contentModificationDate = page.contentModificationDate
            item.expirationDate = page.expirationDate
            (item.version, item.isCurrentVersion) = (page.version, page.isCurrentVersion)
            item.relatedUniqueIdentifier = page.uniqueIdentifier
            item.rankingHint = Self.rankingHint(level: section.level)
            if let url = page.contentURL {
                item.contentURL = url + "#" + (section.anchor.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed) ?? section.anchor)
            }
            do {
                try item.validate()
                items.append(item)
            } catch {
                leftOut["invalid", default: 0] += 1
            }
        }
    }
}
