import Foundation

/// Keywords as stored: a JSON array of strings, which the FTS5 tokenizer reads as plain words.
package enum KeywordList {
    package static func encode(_ keywords: [String]) -> String {
        var json = "["
        for (index, keyword) in keywords.enumerated() {
            if index > 0 { json += "," }
            json += "\""
            for scalar in keyword.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case "\n": json += "\\n"
                case "\r": json += "\\r"
                case "\t": json += "\\t"
                case _ where scalar.value < 0x20:
                    json += String(format: "\\u%04x", scalar.value)
                default: json.unicodeScalars.append(scalar)
                }
            }
            json += "\""
        }
        return json + "]"
    }

    /// The keywords of a stored list; `[]` for anything that is not a JSON array of strings.
    package static func decode(_ json: String) -> [String] {
        // What `encode` writes (every hit of every search decodes one) is read without a JSON decoder; anything
        // else — older rows written by `JSONEncoder`, with `\/` or `\u` escapes — goes through one.
        decodeEncoded(json) ?? (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }

    /// The keywords of exactly what ``encode(_:)`` writes, or `nil`.
    private static func decodeEncoded(_ json: String) -> [String]? {
        var scalars = json.unicodeScalars[...]
        guard scalars.popFirst() == "[", scalars.popLast() == "]" else { return nil }
        var keywords: [String] = []
        while !scalars.isEmpty {
            if !keywords.isEmpty, scalars.popFirst() != "," { return nil }
            guard scalars.popFirst() == "\"" else { return nil }
            var keyword = String.UnicodeScalarView()
            while true {
                guard let scalar = scalars.popFirst() else { return nil }
                if scalar == "\"" { break }
                guard scalar == "\\" else {
                    keyword.append(scalar)
                    continue
                }
                switch scalars.popFirst() {
                case "\"": keyword.append("\"")
                case "\\": keyword.append("\\")
                case "n": keyword.append("\n")
                case "r": keyword.append("\r")
                case "t": keyword.append("\t")
                default: return nil
                }
            }
            keywords.append(String(keyword))
        }
        return keywords
    }
}
