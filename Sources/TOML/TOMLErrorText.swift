/// Text from the document as error messages quote it.
enum TOMLErrorText {
    /// `text` on one line, so one problem stays one line: control characters escaped, long text cut.
    static func oneLine(_ text: String) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == 80 {
                result += "…"
                break
            }
            count += 1
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                result += "\\u{\(hex(scalar.value, digits: 1))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A key as messages quote it: bare if it could be written bare, else in double quotes.
    static func key(_ key: String) -> String {
        let bare = !key.isEmpty && key.utf8.allSatisfy(TOMLReader.isBareKey)
        return bare ? oneLine(key) : "\"\(oneLine(key))\""
    }

    /// A dotted key as messages quote it.
    static func key(_ parts: some Sequence<String>) -> String {
        parts.map(key).joined(separator: ".")
    }

    /// `noun` after "a" or "an": `an integer`, `a string`.
    static func article(_ noun: String) -> String {
        let startsWithVowel = noun.first.map { "aeiou".contains($0) } ?? false
        return (startsWithVowel ? "an " : "a ") + noun
    }

    /// `value` in upper-case hexadecimal, at least `digits` long.
    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
