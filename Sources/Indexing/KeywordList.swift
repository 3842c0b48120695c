import Foundation

/// Keywords as stored: a JSON array of strings, whose words the search postings read as plain words.
package enum KeywordList {
    package static func encode(_ keywords: [String]) -> String {
        var json = "["
        for (index, keyword) in keywords.enumerated() {
            if index > 0 { json += "," }
            json += "\""
            // Most keywords need no escape: appended whole, not scalar by scalar (3 % of an import's time).
            if !keyword.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }) {
                json += keyword
                json += "\""
                continue
            }
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
        var json = json
        return json.withUTF8(decodeEncoded)
    }

    /// ``decodeEncoded(_:)-(String)`` on its UTF-8 bytes: a keyword without escapes is one slice (`"` and `\\` are
    /// never part of a longer UTF-8 sequence).
    private static func decodeEncoded(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        let (open, close, comma, quote, backslash) = (UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "\\"))
        guard bytes.count >= 2, bytes.first == open, bytes.last == close else { return nil }
        let end = bytes.count - 1
        var keywords: [String] = []
        var index = 1
        while index < end {
            if !keywords.isEmpty {
                guard bytes[index] == comma else { return nil }
                index += 1
            }
            guard index < end, bytes[index] == quote else { return nil }
            index += 1
            var start = index
            /// The keyword's bytes before `start`, once it held an escape.
            var unescaped: [UInt8]?
            while true {
                guard index < end else { return nil }
                if bytes[index] == quote { break }
                guard bytes[index] == backslash else {
                    index += 1
                    continue
                }
                guard index + 1 < end else { return nil }
                let escaped: UInt8
                switch bytes[index + 1] {
                case quote: escaped = quote
                case backslash: escaped = backslash
                case UInt8(ascii: "n"): escaped = UInt8(ascii: "\n")
                case UInt8(ascii: "r"): escaped = UInt8(ascii: "\r")
                case UInt8(ascii: "t"): escaped = UInt8(ascii: "\t")
                default: return nil
                }
                unescaped = (unescaped ?? []) + bytes[start..<index] + [escaped]
                index += 2
                start = index
            }
            let tail = UnsafeBufferPointer(rebasing: bytes[start..<index])
            keywords.append(unescaped.map { String(decoding: $0 + tail, as: UTF8.self) } ?? String(decoding: tail, as: UTF8.self))
            index += 1
        }
        return keywords
    }
}
