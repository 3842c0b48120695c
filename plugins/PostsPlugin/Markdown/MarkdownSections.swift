import CCommonMark
import Foundation

/// The sections of a Markdown page, as documentation search indexes them (DocSearch, Pagefind): each heading of the
/// levels asked starts one, which runs to the next heading of those levels (or a `#` heading), with the anchor the
/// page's generator gives the heading (``HeadingAnchors``) and the text under it.
///
/// Template tags are removed first, as for the description (``TemplateTags``). Only headings at the top of the
/// document start sections; every heading, nested ones too, takes its id in document order, as the generator gives
/// them. Linear in the page's length.
enum MarkdownSections {
    /// Sections made of one page, at most: headings past them are counted, not indexed.
    static let maxSections = 500
    /// Text kept of one section, at most, in UTF-8 bytes (cut at a word).
    static let maxTextBytes = 16 * 1024

    /// A heading and what it heads.
    struct Section: Equatable {
        /// 2 for `##`, 3 for `###`.
        var level: Int
        /// The heading's text (``HeadingText/display``).
        var title: String
        /// The heading's `id` on the generated page.
        var anchor: String
        /// The prose under it (paragraphs, list items, quotes, deeper headings; not code or HTML), whitespace collapsed.
        var text: String
        /// The title of the `##` section a `###` one lies in.
        var parentTitle: String?
    }

    /// The sections of `markdown` that start at headings of levels 2 through `deepest`, read as `flavor` reads them
    /// (with a Hugo site's `hugo` settings), and how many headings past ``maxSections`` were left out.
    static func split(_ markdown: Substring, flavor: SiteFlavor, hugo: HugoHeadings = HugoHeadings(), deepest: Int) -> (sections: [Section], leftOut: Int) {
        let text = TemplateTags.strip(markdown)
        guard let document = text.withCString({ cmark_parse_document($0, text.utf8.count, CMARK_OPT_DEFAULT) }) else { return ([], 0) }
        defer { cmark_node_free(document) }

        // Every heading in document order, and its id as the generator gives it. Jekyll: a kramdown attribute list on
        // the line below a heading (`{: #v4-4-1}`) names its id, and is no text.
        var headings: [(node: OpaquePointer, text: HeadingText)] = []
        var attributeLists = Set<OpaquePointer>()
        if let iterator = cmark_iter_new(document) {
            defer { cmark_iter_free(iterator) }
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator), cmark_node_get_type(node) == CMARK_NODE_HEADING else { continue }
                var heading = HeadingText(node, flavor: flavor, hugo: hugo)
                if flavor == .jekyll, let list = attributeList(after: node) {
                    attributeLists.insert(list.node)
                    if heading.explicitID == nil { heading.explicitID = list.id }
                }
                headings.append((node, heading))
            }
        }
        var anchors = HeadingAnchors(flavor: flavor, explicit: headings.compactMap(\.text.explicitID), hugo: hugo)
        var headingAt: [OpaquePointer: (text: HeadingText, anchor: String)] = [:]
        for (node, heading) in headings {
            headingAt[node] = (heading, anchors.anchor(text: heading.idText, explicit: heading.explicitID))
        }

        var sections: [Section] = []
        var leftOut = 0
        var current: Section?
        var currentText = TextCollector(flavor: flavor, maxBytes: maxTextBytes)
        var parentTitle: String?
        func close() {
            guard var section = current else { return }
            section.text = currentText.text
            sections.append(section)
            current = nil
        }
        var block = cmark_node_first_child(document)
        while let node = block {
            block = cmark_node_next(node)
            if cmark_node_get_type(node) == CMARK_NODE_HEADING, let heading = headingAt[node] {
                let level = Int(cmark_node_get_heading_level(node))
                if level <= deepest {
                    close()
                    if level <= 2 { parentTitle = nil }
                    guard level >= 2 else { continue }
                    guard sections.count < maxSections else {
                        leftOut += 1
                        continue
                    }
                    current = Section(
                        level: level, title: heading.text.display, anchor: heading.anchor, text: "", parentTitle: level > 2 ? parentTitle : nil
                    )
                    if level == 2 { parentTitle = heading.text.display }
                    currentText = TextCollector(flavor: flavor, maxBytes: maxTextBytes)
                    continue
                }
            }
            if current != nil, !attributeLists.contains(node) { currentText.add(proseOf: node) }
        }
        close()
        return (sections, leftOut)
    }

    /// The kramdown block attribute list on the line right below `heading` (a paragraph of one text, `{: #id}`), and
    /// the id it names.
    private static func attributeList(after heading: OpaquePointer) -> (node: OpaquePointer, id: String)? {
        guard let next = cmark_node_next(heading), cmark_node_get_type(next) == CMARK_NODE_PARAGRAPH,
              cmark_node_get_start_line(next) == cmark_node_get_end_line(heading) + 1,
              let text = cmark_node_first_child(next), cmark_node_next(text) == nil, cmark_node_get_type(text) == CMARK_NODE_TEXT,
              let literal = cmark_node_get_literal(text), let id = HeadingText.blockAttributeID(String(cString: literal)) else { return nil }
        return (next, id)
    }

    /// The prose of a section's blocks, collapsed and bounded.
    private struct TextCollector {
        let flavor: SiteFlavor
        let maxBytes: Int
        private(set) var text = ""

        init(flavor: SiteFlavor, maxBytes: Int) {
            self.flavor = flavor
            self.maxBytes = maxBytes
        }

        /// Adds the text of every paragraph and heading in `block` (itself or inside lists and quotes), until full.
        mutating func add(proseOf block: OpaquePointer) {
            guard text.utf8.count < maxBytes, let iterator = cmark_iter_new(block) else { return }
            defer { cmark_iter_free(iterator) }
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                // A deeper heading is read as its reader sees it, without its `{#id}`.
                let prose = type == CMARK_NODE_HEADING ? HeadingText(node, flavor: flavor).display
                    : type == CMARK_NODE_PARAGRAPH ? MarkdownProse.plainText(of: node) : nil
                guard let prose, !prose.isEmpty else { continue }
                append(prose)
                if text.utf8.count >= maxBytes { return }
            }
        }

        private mutating func append(_ prose: String) {
            let joined = text.isEmpty ? prose : text + " " + prose
            guard joined.utf8.count > maxBytes else {
                text = joined
                return
            }
            // Cut at the last word that fits.
            var bytes = 0
            var cut = String(joined.prefix { character in
                bytes += character.utf8.count
                return bytes <= maxBytes - 3
            })
            if let space = cut.lastIndex(of: " ") { cut = String(cut[..<space]) }
            text = cut + "…"
        }
    }
}
