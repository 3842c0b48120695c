import Foundation
import CCommonMark

/// The first paragraph of a Markdown text that is prose, as plain text: for an item's description; and its first
/// image, for the thumbnail.
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

    /// The address of the first image, in document order: a Markdown image (`![alt](pics/a.png)`) or the `src` of
    /// an HTML `<img>`; `nil` when there is none. Template tags are removed first, as for the description.
    static func firstImage(of markdown: Substring) -> String? {
        let text = TemplateTags.strip(markdown)
        guard let document = text.withCString({ cmark_parse_document($0, text.utf8.count, CMARK_OPT_DEFAULT) }) else { return nil }
        defer { cmark_node_free(document) }
        guard let iterator = cmark_iter_new(document) else { return nil }
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_IMAGE:
                if let url = cmark_node_get_url(node).map({ String(cString: $0) }), !url.isEmpty { return url }
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE:
                if let html = cmark_node_get_literal(node).map({ String(cString: $0) }), let source = imageSource(inHTML: html) { return source }
            default:
                break
            }
        }
        return nil
    }

    /// Only this much of an HTML block is looked at for an `<img>`.
    static let maxHTMLScanned = 64 * 1024

    /// The `src` of the first `<img>` tag in `html` (quoted with `"` or `'`, or bare), `&amp;` decoded; HTML
    /// comments skipped. Each character is looked at a bounded number of times: a tag never closed ends the search.
    static func imageSource(inHTML html: String) -> String? {
        var rest = html.utf8.count > maxHTMLScanned ? Substring(String(decoding: html.utf8.prefix(maxHTMLScanned), as: UTF8.self)) : html[...]
        var nextComment = rest.range(of: "<!--")
        while let open = rest.range(of: "<img", options: .caseInsensitive) {
            if let comment = nextComment, comment.lowerBound < open.lowerBound {
                guard let end = rest[comment.upperBound...].range(of: "-->") else { return nil }
                rest = rest[end.upperBound...]
                nextComment = rest.range(of: "<!--")
                continue
            }
            rest = rest[open.upperBound...]
            let tag = rest.prefix { $0 != ">" }
            guard tag.endIndex < rest.endIndex else { return nil }
            rest = rest[tag.endIndex...]
            if let comment = nextComment, comment.lowerBound < rest.startIndex { nextComment = rest.range(of: "<!--") }
            var attributes = tag[...]
            while let src = attributes.range(of: "src", options: .caseInsensitive) {
                let before = attributes[..<src.lowerBound].last
                attributes = attributes[src.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" }
                guard before.map({ $0.isWhitespace }) == true, attributes.first == "=" else { continue }
                attributes = attributes.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" }
                let value: Substring
                if let quote = attributes.first, quote == "\"" || quote == "'" {
                    value = attributes.dropFirst().prefix { $0 != quote }
                } else {
                    value = attributes.prefix { !$0.isWhitespace && $0 != ">" }
                }
                return value.isEmpty ? nil : value.replacingOccurrences(of: "&amp;", with: "&")
            }
        }
        return nil
    }

    /// The text of a paragraph's (or heading's) inlines, walked without recursion (nesting has no limit in CommonMark).
    static func plainText(of paragraph: OpaquePointer) -> String? {
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
