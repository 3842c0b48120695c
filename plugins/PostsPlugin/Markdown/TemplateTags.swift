/// Removes what site generators' template languages put in Markdown, before the Markdown is parsed: Liquid tags
/// (`{% include … %}`, `{{ page.url }}`, Jekyll) and Hugo shortcodes (`{{< figure … >}}`, `{{% notice %}}`), which are
/// not prose.
///
/// Blocks whose content is code or a comment (`{% highlight %}…{% endhighlight %}`, `{% raw %}`, `{% comment %}`,
/// `{{< highlight >}}…{{< /highlight >}}`, `{{< code >}}`) are removed with their content; other tags alone, so
/// the text of a paired shortcode stays. A tag not closed within 4 KiB is left as text. Linear in the text's length.
enum TemplateTags {
    /// Liquid blocks removed with their content, by the name that opens them, with the name that closes them.
    static let codeBlocks: [String: String] = ["highlight": "endhighlight", "raw": "endraw", "comment": "endcomment"]
    /// Shortcodes removed with their content when paired.
    static let codeShortcodes: Set<String> = ["highlight", "code", "comment", "codeblock", "mermaid", "math", "katex"]
    /// The longest tag recognised.
    static let maxTagBytes = 4096

    /// The four tag forms, longest opening first.
    private static let forms: [Form] = [
        Form(open: Array("{{<".utf8), close: Array(">}}".utf8), isShortcode: true, isLiquidBlock: false),
        Form(open: Array("{{%".utf8), close: Array("%}}".utf8), isShortcode: true, isLiquidBlock: false),
        Form(open: Array("{{".utf8), close: Array("}}".utf8), isShortcode: false, isLiquidBlock: false),
        Form(open: Array("{%".utf8), close: Array("%}".utf8), isShortcode: false, isLiquidBlock: true),
    ]

    static func strip(_ markdown: Substring) -> String {
        let bytes = Array(markdown.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var closes = forms.map { CloseFinder(bytes: bytes, close: $0.close) }
        /// Inside a block removed with its content: the tag that ends it.
        var skippingUntil: (name: String, isShortcode: Bool)?
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            guard byte == UInt8(ascii: "{"), let (formIndex, form) = forms.enumerated().first(where: { bytes.hasPrefix($0.element.open, at: position) }),
                let close = closes[formIndex].first(atOrAfter: position + form.open.count), close - position <= maxTagBytes
            else {
                if skippingUntil == nil { output.append(byte) }
                position += 1
                continue
            }
            let tag = Tag(String(decoding: bytes[(position + form.open.count)..<close], as: UTF8.self), form: form)
            position = close + form.close.count
            if let skipping = skippingUntil {
                if tag.isShortcode == skipping.isShortcode, tag.name == skipping.name { skippingUntil = nil }
            } else if tag.isShortcode, !tag.isSelfClosing, codeShortcodes.contains(tag.name) {
                skippingUntil = ("/" + tag.name, true)
            } else if form.isLiquidBlock, let closing = codeBlocks[tag.name] {
                skippingUntil = (closing, false)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private struct Form {
        var open: [UInt8]
        var close: [UInt8]
        var isShortcode: Bool
        var isLiquidBlock: Bool
    }

    /// The inside of one tag: its name (`include`, `endhighlight`, `/highlight`) and how it closes.
    private struct Tag {
        var name: String
        var isShortcode: Bool
        var isSelfClosing: Bool

        init(_ inside: String, form: Form) {
            let trimmed = inside.drop { $0 == " " || $0 == "-" || $0 == "\n" || $0 == "\t" || $0 == "\r" }
            name = String(trimmed.prefix { !$0.isWhitespace && $0 != "-" })
            isShortcode = form.isShortcode
            isSelfClosing = trimmed.trimmingTrailingWhitespace.hasSuffix("/")
        }
    }

    /// Finds the next closing delimiter of one form. Lookups come in increasing positions and each search starts
    /// past the last one found, so all lookups together read the text once.
    private struct CloseFinder {
        let bytes: [UInt8]
        let close: [UInt8]
        /// The first delimiter at or after the last lookup's position.
        private var next: Int?
        private var exhausted = false

        init(bytes: [UInt8], close: [UInt8]) {
            self.bytes = bytes
            self.close = close
        }

        mutating func first(atOrAfter start: Int) -> Int? {
            if let next, next >= start { return next }
            if exhausted { return nil }
            var index = start
            while index + close.count <= bytes.count {
                if bytes.hasPrefix(close, at: index) {
                    next = index
                    return index
                }
                index += 1
            }
            exhausted = true
            return nil
        }
    }
}

extension Array where Element == UInt8 {
    func hasPrefix(_ prefix: [UInt8], at index: Int) -> Bool {
        guard index + prefix.count <= count else { return false }
        for offset in prefix.indices where self[index + offset] != prefix[offset] { return false }
        return true
    }
}
