import CCommonMark

/// The first paragraph of a Markdown text that is prose, as plain text: for an item's description.
///
/// The Markdown is parsed by the system cmark (CommonMark's reference implementation: linear in the input, and
/// fuzzed), after template tags are removed (``TemplateTags``). Headings, code blocks, HTML, lists, quotes, tables'
/// raw text and link reference definitions are not prose; in a paragraph, links keep their text (inline and
/// reference styles), emphasis and code marks go, images and inline HTML are dropped.
enum MarkdownProse {
    /// The first top-level paragraph with text in it, whitespace collapsed; `nil` when there is none.
    static func firstParagraph(of markdown: Substring) -> String? {
        let text = TemplateTags.strip(markdown)
        guard let document = text.withCString({ cmark_parse_document($0, text.utf8.count, CMARK_OPT_DEFAULT) }) else { return nil }
        defer { cmark_node_free(document) }
        var block = cmark_node_first_child(document)
        while let node = block {
            if cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH, let prose = plainText(of: node) { return prose }
            block = cmark_node_next(node)
        }
        return nil
    }

    /// The text of a paragraph's inlines, walked without recursion (nesting has no limit in CommonMark).
    private static func plainText(of paragraph: OpaquePointer) -> String? {
        guard let iterator = cmark_iter_new(paragraph) else { return nil }
        defer { cmark_iter_free(iterator) }
        var text = ""
        var imageDepth = 0
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_IMAGE {
                imageDepth += event == CMARK_EVENT_ENTER ? 1 : -1
                continue
            }
            guard imageDepth == 0, event == CMARK_EVENT_ENTER else { continue }
            switch type {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                if let literal = cmark_node_get_literal(node) { text += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                text += " "
            default:
                break
            }
        }
        let collapsed = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return collapsed.isEmpty ? nil : collapsed
    }
}
