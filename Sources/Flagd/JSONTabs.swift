/// JSON allows tabs between tokens, YAML (which reads the flag files) does not: flag files written by JSON tools
/// indented with tabs get spaces in their place before they are parsed, outside strings only, so every line and
/// column stays where the editor shows it.
enum JSONTabs {
    /// `text`'s bytes with its tabs outside double-quoted strings replaced by spaces, when it is a JSON object (its first
    /// non-blank character is `{`); any other text unchanged.
    static func untabbed(_ text: [UInt8]) -> [UInt8] {
        var bytes = text
        guard bytes.contains(UInt8(ascii: "\t")),
            bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "{")
        else { return text }
        var inString = false, escaped = false
        for index in bytes.indices {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "\t") {
                bytes[index] = UInt8(ascii: " ")
            }
        }
        return bytes
    }
}
