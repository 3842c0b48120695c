import Foundation
import PluginAPI

/// A front-matter date as Jekyll reads it, where it is more lenient than ISO 8601: Ruby's YAML (Psych) reads
/// timestamps with one-digit months, days and hours, and Jekyll hands any other text to Ruby's `Time.parse`.
///
/// 1. Psych's timestamp, `2024-03-21 4:00:00 +0000`: `YYYY-M-D`, then `T` or spaces, `H:MM:SS`, an optional
///    fraction, an optional zone (`Z`, `+H`, `+HH`, `+HHMM`, `+HH:MM`, after optional spaces). Without a zone Psych
///    takes the time as UTC.
/// 2. Psych's date, `2024-3-21`: midnight in the site's zone (Jekyll reads the date again with `Time.parse`).
/// 3. What `Time.parse` reads of the text Jekyll sites write: a date `YYYY-M-D` first, then optionally `T` or
///    spaces and a time `H:MM` or `H:MM:SS` with a zone right after it (`+0800`, `-08:00`, `Z`, `UTC`, `GMT`); the
///    rest is ignored, as Ruby ignores it (`2023-01-29 18:30:22 2023 -0800` is 18:30:22 in the site's zone: the
///    offset follows the repeated year, not the time). Without a zone, the site's zone.
///
/// A day the calendar does not have, an hour past 23 or a minute or second past 59 is refused (Ruby would roll
/// February 30 into March).
enum JekyllDate {
    static func parse(_ text: String, zone: TimeZone) throws(ISO8601.ParseError) -> Date {
        guard text.utf8.count <= 64 else { throw ISO8601.ParseError(reason: "longer than a date can be") }
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4...4), scanner.take("-"), let month = scanner.number(digits: 1...2), scanner.take("-"),
            let day = scanner.number(digits: 1...2)
        else { throw ISO8601.ParseError(reason: "not a date such as 2027-01-31 or 2027-01-31 10:00:00 +0200") }
        guard year >= 1, (1...12).contains(month), (1...CivilDateTime.daysIn(month: month, year: year)).contains(day) else {
            throw ISO8601.ParseError(reason: "\(text.prefix(10)) is not a day of the calendar")
        }
        var civil = CivilDateTime(year: year, month: month, day: day)
        // A time after the date, and a zone right after the time.
        guard scanner.take("T") || scanner.take("t") || scanner.skipSpaces(), let hour = scanner.number(digits: 1...2), scanner.take(":"),
            let minute = scanner.number(digits: 2...2)
        else {
            // Psych's date, or Time.parse reading only the date: midnight in the site's zone.
            return zone.instant(of: civil)
        }
        let hasSeconds = scanner.take(":")
        let second = hasSeconds ? scanner.number(digits: 2...2) : 0
        guard let second, hour <= 23, minute <= 59, second <= 59 else { throw ISO8601.ParseError(reason: "\(text.prefix(40)) is not a time of day") }
        (civil.hour, civil.minute, civil.second) = (hour, minute, second)
        var fraction = 0.0
        if hasSeconds, scanner.take(".") { fraction = scanner.fraction() }
        _ = scanner.skipSpaces()
        let offset = scanner.zoneOffset()
        if hasSeconds, scanner.isAtEnd {
            // Psych's timestamp: a zone-less one is UTC.
            return Date(timeIntervalSince1970: TimeInterval(civil.secondsSinceEpoch - (offset ?? 0)) + fraction)
        }
        // Time.parse: the zone right after the time, or the site's zone; the rest ignored.
        guard let offset else { return zone.instant(of: civil) + fraction }
        return Date(timeIntervalSince1970: TimeInterval(civil.secondsSinceEpoch - offset) + fraction)
    }

    /// Reads ASCII fields off the front of the text.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        /// Spaces or tabs, at least one.
        mutating func skipSpaces() -> Bool {
            let start = position
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
            return position > start
        }

        /// A run of ASCII digits whose length is in `digits`, as a number.
        mutating func number(digits: ClosedRange<Int>) -> Int? {
            var end = position
            while end < bytes.count, end - position < digits.upperBound, (48...57).contains(bytes[end]) { end += 1 }
            guard digits.contains(end - position), end == bytes.count || !(48...57).contains(bytes[end]) else { return nil }
            defer { position = end }
            return bytes[position..<end].reduce(0) { $0 * 10 + Int($1 - 48) }
        }

        /// The digits of a fraction of a second (at most 9 count), as a value in [0, 1).
        mutating func fraction() -> Double {
            let start = position
            while position < bytes.count, (48...57).contains(bytes[position]) { position += 1 }
            return Double("0." + String(decoding: bytes[start..<min(position, start + 9)], as: UTF8.self)) ?? 0
        }

        /// `Z`, `UTC`, `GMT` (0), or `+H`, `+HH`, `+HHMM`, `+HH:MM`, `-…` as seconds east of UTC; `nil`, reading
        /// nothing, for anything else.
        mutating func zoneOffset() -> Int? {
            let start = position
            for name in ["UTC", "GMT", "Z"] where bytes[position...].starts(with: name.utf8) {
                position += name.utf8.count
                if isAtEnd || !(bytes[position] >= 0x41 && bytes[position] <= 0x7A) { return 0 }
                position = start
            }
            let sign: Int
            if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
            var end = position
            while end < bytes.count, (48...57).contains(bytes[end]) { end += 1 }
            let digits = bytes[position..<end].map { Int($0 - 48) }
            position = end
            let hours: Int, minutes: Int
            switch digits.count {
            case 1, 2:
                hours = digits.reduce(0) { $0 * 10 + $1 }
                if take(":") {
                    guard let value = number(digits: 2...2) else { position = start; return nil }
                    minutes = value
                } else {
                    minutes = 0
                }
            case 4: (hours, minutes) = (digits[0] * 10 + digits[1], digits[2] * 10 + digits[3])
            default:
                position = start
                return nil
            }
            guard hours <= 23, minutes <= 59 else { position = start; return nil }
            return sign * (hours * 3600 + minutes * 60)
        }
    }
}
