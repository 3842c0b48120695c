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

    /// Reads the heading `node` of a document parsed by cmark, for `flavor` (and a Hugo site's `hugo` settings). Walks
    /// without recursion: inline nesting has no limit in CommonMark.
    init(_ node: OpaquePointer, flavor: SiteFlavor, hugo: HugoHeadings = HugoHeadings()) {
        // The attribute block is the end of the heading's last text.
        var lastText: (node: OpaquePointer, literal: String)?
        if let last = cmark_node_last_child(node), cmark_node_get_type(last) == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(last) {
            if let attribute = Self.attribute(ending: String(cString: literal), strict: flavor == .jekyll) {
                explicitID = attribute.id
                lastText = (last, attribute.rest)
            }
        }
        var display = "", idText = ""
        guard let iterator = cmark_iter_new(node) else {
            self.display = ""
            self.idText = ""
            return
        }
        defer { cmark_iter_free(iterator) }
        /// For each open inline container: whether its content is read for the id (Hugo reads a container's first
        /// piece only; kramdown no image's alternative text).
        var reading: [Bool] = []
        var images = 0
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let current = cmark_iter_get_node(iterator), current != node else { continue }
            let type = cmark_node_get_type(current)
            let isFirst = cmark_node_parent(current) == node || cmark_node_previous(current) == nil
            let read = (reading.last ?? true) && (flavor != .hugo || isFirst)
            switch type {
            case CMARK_NODE_EMPH, CMARK_NODE_STRONG, CMARK_NODE_LINK, CMARK_NODE_IMAGE, CMARK_NODE_CUSTOM_INLINE:
                let isImage = type == CMARK_NODE_IMAGE
                if event == CMARK_EVENT_ENTER {
                    reading.append(read && !(isImage && flavor == .jekyll))
                    if isImage { images += 1 }
                } else {
                    reading.removeLast()
                    if isImage { images -= 1 }
                }
                continue
            default:
                break
            }
            guard event == CMARK_EVENT_ENTER else { continue }
            let literal = current == lastText?.node ? lastText?.literal : cmark_node_get_literal(current).map { String(cString: $0) }
            switch type {
            case CMARK_NODE_TEXT:
                guard let literal = literal.map(Self.withoutFootnoteReferences) else { continue }
                if images == 0 { display += literal }
                guard read else { continue }
                switch flavor {
                case .zola: idText += literal
                case .jekyll: idText += Self.withoutTypographicDashes(literal)
                // Goldmark's typographer splits a text at its quotes, dashes and ellipses: a container's first piece
                // ends there.
                case .hugo: idText += hugo.typographer?.apply(to: literal, firstPiece: cmark_node_parent(current) != node) ?? literal
                }
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

    /// `text` without footnote references (`[^1]`), which no generator reads into an id or a title.
    static func withoutFootnoteReferences(_ text: String) -> String {
        guard text.contains("[^") else { return text }
        var result = ""
        var rest = text[...]
        while let open = rest.range(of: "[^") {
            result += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: "]"), close > after.startIndex, !after[..<close].contains(where: \.isWhitespace) else {
                result += "[^"
                rest = after
                continue
            }
            rest = after[after.index(after: close)...]
        }
        return result + rest
    }

    /// The attribute block ending `text` and the text before it: `Title {#intro .wide title="Hello world"}`, every part an
    /// `#id`, a `.class` or a `key=value` (quoted or not), as Goldmark and pulldown-cmark read it; its id (`#id` or
    /// `id=…`), if it names one. `strict` takes kramdown's form only: ` {#id}` with an id of letters, digits, `_`, `:`
    /// and `-` starting with an ASCII letter.
    static func attribute(ending text: String, strict: Bool) -> (id: String?, rest: String)? {
        var trimmed = text[...]
        while let last = trimmed.last, last == " " || last == "\t" { trimmed = trimmed.dropLast() }
        guard trimmed.hasSuffix("}"), let open = trimmed.lastIndex(of: "{"), open > trimmed.startIndex,
              trimmed[trimmed.index(before: open)] == " " || trimmed[trimmed.index(before: open)] == "\t" else { return nil }
        let inside = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        let rest = String(trimmed[..<open])
        if strict {
            guard inside.first == "#", let first = inside.dropFirst().first, first.isASCII, first.isLetter,
                  inside.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" || $0 == "-" }) else { return nil }
            return (String(inside.dropFirst()), rest)
        }
        guard let parts = attributeParts(inside), !parts.isEmpty else { return nil }
        var id: String?
        for part in parts {
            if part.hasPrefix("#") { id = id ?? String(part.dropFirst()) }
            if part.hasPrefix("id=") { id = id ?? Self.unquoted(part.dropFirst(3)) }
        }
        return (id.flatMap { $0.isEmpty ? nil : $0 }, rest)
    }

    /// The parts of an attribute block's inside, split at whitespace outside quotes; `nil` when one is not an `#id`, a
    /// `.class` or a `key=value`, or a quote is not closed.
    private static func attributeParts(_ inside: Substring) -> [Substring]? {
        var parts: [Substring] = []
        var rest = inside.drop { $0 == " " || $0 == "\t" }
        while !rest.isEmpty {
            var end = rest.startIndex
            var quote: Character?
            while end < rest.endIndex {
                let character = rest[end]
                if let open = quote {
                    if character == open { quote = nil }
                } else if character == "\"" || character == "'" {
                    quote = character
                } else if character == " " || character == "\t" {
                    break
                }
                end = rest.index(after: end)
            }
            guard quote == nil else { return nil }
            let part = rest[..<end]
            let isKeyValue = part.firstIndex(of: "=").map { $0 > part.startIndex } ?? false
            guard part.count > 1, part.hasPrefix("#") || part.hasPrefix(".") || isKeyValue else { return nil }
            parts.append(part)
            rest = rest[end...].drop { $0 == " " || $0 == "\t" }
        }
        return parts
    }

    private static func unquoted(_ value: Substring) -> String {
        guard let first = value.first, first == "\"" || first == "'", value.count >= 2, value.last == first else { return String(value) }
        return String(value.dropFirst().dropLast())
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

    /// `text` without the `---` and `--` that kramdown's typographer turns into dashes (read left to right, `---`
    /// first), which its ids leave out.
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
