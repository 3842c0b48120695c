import CCommonMark
import Foundation

/// A heading of a Markdown page as a reader sees it and as its generator reads it to make its `id`.
///
/// - ``display``: its text, code included, inline HTML and images' alternative text left out, whitespace collapsed.
/// - ``idText``: what the flavor's generator makes the id from (``HeadingAnchors``): Jekyll (kramdown's raw text)
///   every text and code, HTML tags and images dropped, typographic `--` and `---` gone (they become dashes, not word
///   characters); Hugo (Goldmark's plain text) the same, but of a link, emphasis or image (its alternative text) only
///   its first piece; Zola (pulldown-cmark's text and code events) every text, code and alternative text, a line
///   break adding nothing.
/// - ``explicitID``: the `{#id}` written at its end, which every generator takes as the id (and leaves out of the text).
struct HeadingText {
    var display: String
    var idText: String
    var explicitID: String?

    /// Reads the heading `node` of a document parsed by cmark, for `flavor`. Walks without recursion: inline nesting has
    /// no limit in CommonMark.
    init(_ node: OpaquePointer, flavor: SiteFlavor) {
        // The explicit id is the end of the heading's last text.
        var lastText: (node: OpaquePointer, literal: String)?
        if let last = cmark_node_last_child(node), cmark_node_get_type(last) == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(last) {
            let text = String(cString: literal)
            if let (id, rest) = Self.attribute(ending: text, strict: flavor == .jekyll) {
                explicitID = id
                lastText = (last, rest)
            }
        }
        var display = "", idText = ""
        guard let iterator = cmark_iter_new(node) else {
            self.display = ""
            self.idText = ""
            return
        }
        defer { cmark_iter_free(iterator) }
        /// For each open inline container: whether its content is read for the id (Hugo reads a container's first child only).
        var reading: [Bool] = []
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let current = cmark_iter_get_node(iterator), current != node else { continue }
            let type = cmark_node_get_type(current)
            let isContainer = type == CMARK_NODE_EMPH || type == CMARK_NODE_STRONG || type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE
                || type == CMARK_NODE_CUSTOM_INLINE
            // Hugo reads a container's first piece only; kramdown reads no image's alternative text.
            let read = (reading.last ?? true)
                && (flavor != .hugo || cmark_node_parent(current) == node || cmark_node_previous(current) == nil)
                && (flavor != .jekyll || type != CMARK_NODE_IMAGE)
            if isContainer {
                if event == CMARK_EVENT_ENTER { reading.append(read) } else { reading.removeLast() }
                continue
            }
            guard event == CMARK_EVENT_ENTER else { continue }
            let literal = current == lastText?.node ? lastText?.literal : cmark_node_get_literal(current).map { String(cString: $0) }
            let inImage = Self.isInsideImage(current, below: node)
            switch type {
            case CMARK_NODE_TEXT:
                guard let literal else { continue }
                if !inImage { display += literal }
                if read { idText += flavor == .zola ? literal : Self.withoutTypographicDashes(literal) }
            case CMARK_NODE_CODE:
                guard let literal else { continue }
                display += literal
                if read { idText += literal }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                display += " "
                if read, flavor != .zola { idText += "\n" }
            default:
                break
            }
        }
        self.display = display.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        // Hugo reads a heading written on several lines (setext) by its last line.
        self.idText = flavor == .hugo ? String(idText.split(separator: "\n", omittingEmptySubsequences: false).last ?? "") : idText
    }

    /// Whether `node` lies inside an image below `heading` (its alternative text).
    private static func isInsideImage(_ node: OpaquePointer, below heading: OpaquePointer) -> Bool {
        var parent = cmark_node_parent(node)
        while let current = parent, current != heading {
            if cmark_node_get_type(current) == CMARK_NODE_IMAGE { return true }
            parent = cmark_node_parent(current)
        }
        return false
    }

    /// The id of an attribute block ending `text` (`Title {#intro .wide}`: every part an `#id`, a `.class` or a
    /// `key=value`, as Goldmark and pulldown-cmark read it), and the text before it; `strict` takes kramdown's form
    /// only, `{#id}` with an id of letters, digits, `_`, `:` and `-` starting with an ASCII letter.
    static func attribute(ending text: String, strict: Bool) -> (id: String, rest: String)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix("}"), let open = trimmed.lastIndex(of: "{"), open > trimmed.startIndex,
              trimmed[trimmed.index(before: open)] == " " || trimmed[trimmed.index(before: open)] == "\t" else { return nil }
        let inside = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        let tokens = inside.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard tokens.allSatisfy({ $0.count > 1 && ($0.hasPrefix("#") || $0.hasPrefix(".") || $0.dropFirst().contains("=")) }),
              let token = tokens.first(where: { $0.hasPrefix("#") }) else { return nil }
        let id = String(token.dropFirst())
        if strict {
            guard tokens.count == 1, id.first?.isASCII == true, id.first?.isLetter == true,
                  id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" || $0 == "-" }) else { return nil }
        }
        return (id, String(trimmed[..<open]))
    }

    /// The id of a kramdown block attribute list (`{: #v4-4-1 .note}`, `{:#intro}`), which names the id of the block
    /// on the line above it.
    static func blockAttributeID(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("{:"), trimmed.hasSuffix("}"), !trimmed.contains("\n") else { return nil }
        let tokens = trimmed.dropFirst(2).dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let token = tokens.first(where: { $0.hasPrefix("#") }), token.count > 1 else { return nil }
        return String(token.dropFirst())
    }

    /// `text` without the `---` and `--` that Jekyll's and Hugo's typographers turn into dashes (read left to right,
    /// `---` first), which their ids leave out.
    static func withoutTypographicDashes(_ text: String) -> String {
        guard text.contains("--") else { return text }
        var result = ""
        var rest = text[...]
        while let first = rest.first {
            if rest.hasPrefix("---") {
                rest = rest.dropFirst(3)
            } else if rest.hasPrefix("--") {
                rest = rest.dropFirst(2)
            } else {
                result.append(first)
                rest = rest.dropFirst()
            }
        }
        return result
    }
}
