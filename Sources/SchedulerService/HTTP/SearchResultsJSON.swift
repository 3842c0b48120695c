import Foundation
package import Indexing
import PluginAPI

/// The JSON body of `GET /search`, written byte by byte: the bytes `JSONEncoder` writes for ``SearchResults`` with the
/// API's options (``JSONResponse``: sorted keys, slashes not escaped, ISO 8601 dates), at a fraction of its cost. A
/// profile of `scheduler run` answering cached searches put 70 % of its CPU in `JSONEncoder` (BENCHMARKS.md);
/// `SearchResultsJSONTests` holds the two to the same bytes, hostile text included.
package struct SearchResultsJSON {
    private var bytes: [UInt8] = []

    /// The body for `results`; `nil` when a number has no JSON form (a score that is not finite), which `JSONEncoder`
    /// refuses too.
    package static func encode(_ results: SearchResults) -> [UInt8]? {
        guard results.hits.allSatisfy(\.score.isFinite) else { return nil }
        var writer = SearchResultsJSON()
        writer.bytes.reserveCapacity(1024 + results.hits.count * 1536)
        writer.write(results)
        return writer.bytes
    }

    // Every object's keys are written in the order `.sortedKeys` gives (UTF-8 byte order).

    private mutating func write(_ results: SearchResults) {
        open()
        var first = true
        if let facets = results.facets {
            key("facets", first: &first)
            writeObject(sortedByKey: facets) { writer, counts in
                writer.writeObject(sortedByKey: counts) { writer, count in writer.write(count) }
            }
        }
        if let exact = results.facetsAreExact { key("facetsAreExact", first: &first); write(exact) }
        key("hits", first: &first); writeArray(results.hits) { writer, hit in writer.write(hit) }
        key("total"); write(results.total)
        key("totalIsExact"); write(results.totalIsExact)
        close()
    }

    private mutating func write(_ hit: SearchHit) {
        open()
        key("authorNames", isFirst: true); writeArray(hit.authorNames) { writer, name in writer.write(name) }
        key("contentCreationDate"); write(hit.contentCreationDate)
        key("contentDescription"); write(hit.contentDescription)
        key("contentModificationDate"); write(hit.contentModificationDate)
        key("contentType"); write(hit.contentType)
        key("contentURL"); write(hit.contentURL)
        key("displayName"); write(hit.displayName)
        key("domainIdentifier"); write(hit.domainIdentifier)
        key("expirationDate"); write(hit.expirationDate)
        key("highlights")
        if let highlights = hit.highlights { write(highlights) } else { append("null") }
        key("keywords"); writeArray(hit.keywords) { writer, keyword in writer.write(keyword) }
        key("rankingHint")
        if let hint = hit.rankingHint { write(hint) } else { append("null") }
        key("relatedUniqueIdentifier"); write(hit.relatedUniqueIdentifier)
        key("score"); write(hit.score)
        key("sections"); writeArray(hit.sections) { writer, section in writer.write(section) }
        key("snippet")
        if let snippet = hit.snippet {
            open()
            key("highlights", isFirst: true); write(snippet.highlights)
            key("text"); write(snippet.text)
            close()
        } else {
            append("null")
        }
        key("thumbnailURL"); write(hit.thumbnailURL)
        key("title"); write(hit.title)
        key("uniqueIdentifier"); write(hit.uniqueIdentifier)
        key("version"); write(hit.version)
        close()
    }

    private mutating func write(_ highlights: SearchHighlights) {
        open()
        key("authorNames", isFirst: true); writeArray(highlights.authorNames) { writer, ranges in writer.write(ranges) }
        key("contentDescription"); write(highlights.contentDescription)
        key("displayName"); write(highlights.displayName)
        key("keywords"); writeArray(highlights.keywords) { writer, ranges in writer.write(ranges) }
        key("title"); write(highlights.title)
        close()
    }

    private mutating func write(_ ranges: [TextRange]) {
        writeArray(ranges) { writer, range in
            writer.bytes.append(UInt8(ascii: "["))
            writer.write(range.start)
            writer.bytes.append(UInt8(ascii: ","))
            writer.write(range.end)
            writer.bytes.append(UInt8(ascii: "]"))
        }
    }

    private mutating func open() { bytes.append(UInt8(ascii: "{")) }

    private mutating func close() { bytes.append(UInt8(ascii: "}")) }

    /// `"name":`, after a `,` unless it is the object's first key.
    private mutating func key(_ name: StaticString, isFirst: Bool = false) {
        if !isFirst { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        append(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// `"name":`, after a `,` unless `first` (then no longer).
    private mutating func key(_ name: StaticString, first: inout Bool) {
        key(name, isFirst: first)
        first = false
    }

    private mutating func writeArray<Element>(_ elements: [Element], _ body: (inout SearchResultsJSON, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            body(&self, element)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func writeObject<Value>(sortedByKey dictionary: [String: Value], _ body: (inout SearchResultsJSON, Value) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        for (index, (key, value)) in dictionary.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(key)
            bytes.append(UInt8(ascii: ":"))
            body(&self, value)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func write(_ value: Bool) { value ? append("true") : append("false") }

    private mutating func write(_ value: Int) {
        guard value >= 0 else { return bytes.append(contentsOf: String(value).utf8) }
        writeDigits(value, minimumCount: 1)
    }

    /// The decimal digits of `value` (not negative), zeros first to make `minimumCount` digits, then `separator`.
    private mutating func writeDigits(_ value: Int, minimumCount: Int, then separator: Unicode.Scalar) {
        writeDigits(value, minimumCount: minimumCount)
        bytes.append(UInt8(ascii: separator))
    }

    /// The decimal digits of `value` (not negative), zeros first to make `minimumCount` digits.
    private mutating func writeDigits(_ value: Int, minimumCount: Int) {
        var digits = 1, rest = value
        while rest >= 10 {
            digits += 1
            rest /= 10
        }
        digits = max(digits, minimumCount)
        let end = bytes.count + digits
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        var value = value, index = end - 1
        while value > 0 {
            bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
            index -= 1
        }
    }

    /// As `JSONEncoder` writes a `Double`: its shortest description, without a trailing `.0`.
    private mutating func write(_ value: Double) {
        let text = value.description
        bytes.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
    }

    /// As `JSONEncoder`'s `.iso8601` strategy writes a date (whole seconds, UTC): a whole second from 1970 to 9999 (what
    /// items hold) digit by digit, any other through Foundation.
    private mutating func write(_ date: Date?) {
        guard let date else { return append("null") }
        bytes.append(UInt8(ascii: "\""))
        // A date holds seconds since 2001: whole there, it is whole since 1970 (the other way, adding 978,307,200 may
        // round a fraction away).
        let seconds = date.timeIntervalSinceReferenceDate
        if seconds >= Self.year1970, seconds < Self.year10000, seconds.rounded(.down) == seconds {
            let civil = CivilDateTime(secondsSinceEpoch: Int(seconds) + Int(Date.timeIntervalBetween1970AndReferenceDate))
            writeDigits(civil.year, minimumCount: 4, then: "-")
            writeDigits(civil.month, minimumCount: 2, then: "-")
            writeDigits(civil.day, minimumCount: 2, then: "T")
            writeDigits(civil.hour, minimumCount: 2, then: ":")
            writeDigits(civil.minute, minimumCount: 2, then: ":")
            writeDigits(civil.second, minimumCount: 2, then: "Z")
        } else {
            bytes.append(contentsOf: date.formatted(.iso8601).utf8)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// 1970-01-01T00:00:00Z and 10000-01-01T00:00:00Z, in seconds since 2001 (what a date holds).
    private static let year1970 = -Date.timeIntervalBetween1970AndReferenceDate
    private static let year10000 = Double(CivilDateTime(year: 10_000, month: 1, day: 1).secondsSinceEpoch) - Date.timeIntervalBetween1970AndReferenceDate

    private mutating func write(_ text: String?) {
        guard let text else { return append("null") }
        write(text)
    }

    /// A JSON string as `JSONEncoder` escapes it: `"` and `\`, the control characters (`\b \t \n \f \r` by name, the
    /// others as `\u00XX`); everything else, `/` included, as it is.
    private mutating func write(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
