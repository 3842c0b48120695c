/// Plain text from Markdown, for an item's description: the first paragraph, without markup.
enum MarkdownText {
    /// The first paragraph of `markdown` that is prose (not a heading, a list, a quote, code or an image),
    /// with links reduced to their text and emphasis and code marks removed.
    static func firstParagraph(of markdown: Substring) -> String? {
        var paragraph: [String] = []
        var inFence = false
        for raw in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") || line.hasPrefix("~~~") {
                inFence.toggle()
                continue
            }
            if inFence { continue }
            if line.isEmpty {
                if !paragraph.isEmpty { break }
                continue
            }
            let isProse = !(line.hasPrefix("#") || line.hasPrefix(">") || line.hasPrefix("- ") || line.hasPrefix("* ")
                || line.hasPrefix("![") || line.hasPrefix("<") || line.hasPrefix("|"))
            if isProse { paragraph.append(line) } else if !paragraph.isEmpty { break }
        }
        let text = plain(paragraph.joined(separator: " "))
        return text.isEmpty ? nil : text
    }

    /// `text` without inline Markdown: `[label](url)` becomes `label`, and `*`, `_`, `` ` `` marks go.
    static func plain(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "]"), rest.index(after: close) < rest.endIndex,
                rest[rest.index(after: close)] == "(", let end = rest[close...].firstIndex(of: ")")
            {
                result += rest[afterOpen..<close]
                rest = rest[rest.index(after: end)...]
            } else {
                result += "["
                rest = rest[afterOpen...]
            }
        }
        result += rest
        return result.filter { $0 != "*" && $0 != "`" }
            .replacingOccurrences(of: " _", with: " ").replacingOccurrences(of: "_ ", with: " ")
            .trimmingCharacters(in: .whitespaces)
    }
}
