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

    package static func decode(_ json: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }
}
