import Foundation
import PluginAPI

/// A front-matter date as Jekyll reads it, where it is more lenient than ISO 8601: Ruby's YAML (Psych) turns an
/// unquoted timestamp into a time, and Jekyll hands any other text (a quoted one too) to Ruby's `Time.parse`.
///
/// 1. Psych's timestamp, written plain (unquoted, untagged): `2024-03-21 4:00:00 +0000`: `YYYY-M-D`, then `T`
///    or spaces, `H:MM:SS`, an optional fraction, an optional zone (`Z`, `+H`, `+HH`, `+HHMM`, `+HH:MM`, after
///    optional spaces), nothing else. Without a zone Psych takes the time as UTC.
/// 2. What `Time.parse` reads of the text Jekyll sites write: a date `YYYY-M-D` first, then optionally (after `T`
///    or spaces) a time `H:M`, `H:M:S` or `H:M:S.f`, and right after it a zone as Ruby's `Time.zone_offset` reads
///    one: `±HH`, `±HHMM`, `±HH:MM`, `UTC`, `UT`, `GMT`, `Z`, `EST` `EDT` `CST` `CDT` `MST` `MDT` `PST` `PDT`, the
///    military letters; anything else after the time is ignored, as Ruby ignores it, and the time is the site's
///    wall clock (`2023-01-29 18:30:22 2023 -0800`: the offset follows the repeated year, not the time; `UTC+8` is
///    no zone Ruby knows). A bare date is midnight in the site's zone.
///
/// A day the calendar does not have, an hour past 23, a minute or second past 59 is refused (Ruby would roll
/// February 30 into March, or fail the build).
enum JekyllDate {
    /// The instant `text` names; `isYAMLTimestamp`: it was written as a plain, untagged YAML scalar.
    static func parse(_ text: String, zone: TimeZone, isYAMLTimestamp: Bool) throws(ISO8601.ParseError) -> Date {
        guard text.utf8.count <= 64 else { throw ISO8601.ParseError(reason: "longer than a date can be") }
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4...4), scanner.take("-"), let month = scanner.number(digits: 1...2), scanner.take("-"),
            let day = scanner.number(digits: 1...2)
        else { throw ISO8601.ParseError(reason: "not a date such as 2027-01-31 or 2027-01-31 10:00:00 +0200") }
        guard year >= 1, (1...12).contains(month), (1...CivilDateTime.daysIn(month: month, year: year)).contains(day) else {
            throw ISO8601.ParseError(reason: "\(text.prefix(10)) is not a day of the calendar")
        }
        let date = CivilDateTime(year: year, month: month, day: day)
        let afterDate = scanner.position
        if isYAMLTimestamp, let instant = psychTimestamp(date, scanner: &scanner) { return instant }
        scanner.position = afterDate
        return try timeParse(date, scanner: &scanner, zone: zone, text: text)
    }

    /// Psych's timestamp after its date, to the end of the text; `nil` when the rest is not one.
    private static func psychTimestamp(_ date: CivilDateTime, scanner: inout Scanner) -> Date? {
        guard scanner.take("T") || scanner.take("t") || scanner.skipSpaces(), let hour = scanner.number(digits: 1...2), scanner.take(":"),
            let minute = scanner.number(digits: 2...2), scanner.take(":"), let second = scanner.number(digits: 2...2),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        let fraction = scanner.take(".") ? scanner.fraction() : 0
        _ = scanner.skipSpaces()
        var offset = 0
        if !scanner.take("Z"), !scanner.isAtEnd {
            // `[-+]\d{1,2}:?(?:\d\d)?`, to the end: `+H`, `+HH`, `+HHMM`, `+H:MM`, `+HH:MM`.
            let token = scanner.zoneToken()
            guard let sign = token.first.flatMap({ $0 == "+" ? 1 : $0 == "-" ? -1 : nil }), scanner.isAtEnd else { return nil }
            let body = token.dropFirst()
            let parts = body.split(separator: ":", omittingEmptySubsequences: false)
            guard body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }) else { return nil }
            let hours: Substring, minutes: Substring
            switch (parts.count, body.count) {
            case (1, 1...2): (hours, minutes) = (body, "0")
            case (1, 4): (hours, minutes) = (body.prefix(2), body.suffix(2))
            case (2, _) where (1...2).contains(parts[0].count) && parts[1].count == 2: (hours, minutes) = (parts[0], parts[1])
            default: return nil
            }
            offset = sign * (Int(hours)! * 3600 + Int(minutes)! * 60)
        }
        guard scanner.isAtEnd else { return nil }
        let civil = CivilDateTime(year: date.year, month: date.month, day: date.day, hour: hour, minute: minute, second: second)
        return Date(timeIntervalSince1970: TimeInterval(civil.secondsSinceEpoch - offset) + fraction)
    }

    /// `Time.parse`'s reading after the date: a time and the zone right after it, or midnight; in `zone` unless a
    /// zone Ruby knows follows the time.
    private static func timeParse(_ date: CivilDateTime, scanner: inout Scanner, zone: TimeZone, text: String) throws(ISO8601.ParseError) -> Date {
        while scanner.take("T") || scanner.take("t") || scanner.skipSpaces() {}
        let timeStart = scanner.position
        guard let hour = scanner.number(digits: 1...9), scanner.take(":") else { return zone.instant(of: date) }
        guard let minute = scanner.number(digits: 1...2) else {
            scanner.position = timeStart
            return zone.instant(of: date)
        }
        var second = 0
        var fraction = 0.0
        if scanner.take(":") {
            guard let value = scanner.number(digits: 1...2) else { throw ISO8601.ParseError(reason: "\(text.prefix(40)) is not a time of day") }
            second = value
            if scanner.take(".") || scanner.take(",") { fraction = scanner.fraction() }
        }
        guard hour <= 23, minute <= 59, second <= 59 else { throw ISO8601.ParseError(reason: "\(text.prefix(40)) is not a time of day") }
        let civil = CivilDateTime(year: date.year, month: date.month, day: date.day, hour: hour, minute: minute, second: second)
        _ = scanner.skipSpaces()
        guard let offset = zoneOffset(scanner.zoneToken()) else { return zone.instant(of: civil) + fraction }
        return Date(timeIntervalSince1970: TimeInterval(civil.secondsSinceEpoch - offset) + fraction)
    }

    /// Seconds east of UTC for a zone as Ruby's `Time.zone_offset` reads it, `nil` for one it does not know.
    static func zoneOffset(_ token: String) -> Int? {
        let zone = token.uppercased()
        let bytes = Array(zone.utf8)
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ (48...57).contains($0) }) else { return nil }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 48) }
        }
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            let sign = first == UInt8(ascii: "-") ? -1 : 1
            guard let hours = digits(1..<3) else { return nil }
            switch bytes.count {
            case 3: return sign * hours * 3600
            case 5: return digits(3..<5).map { sign * (hours * 3600 + $0 * 60) }
            case 6 where bytes[3] == UInt8(ascii: ":"): return digits(4..<6).map { sign * (hours * 3600 + $0 * 60) }
            default: return nil
            }
        }
        return namedZones[zone].map { $0 * 3600 }
    }

    /// Ruby's `Time::ZoneOffset`: names and military letters, in hours east of UTC.
    static let namedZones: [String: Int] = {
        var zones = ["UTC": 0, "Z": 0, "UT": 0, "GMT": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7]
        for (hours, letter) in zip(1...12, "ABCDEFGHIKLM") { zones[String(letter)] = hours }
        for (hours, letter) in zip(1...12, "NOPQRSTUVWXY") { zones[String(letter)] = -hours }
        return zones
    }()

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

        /// A run of ASCII digits whose length is in `digits`, not followed by another digit, as a number.
        mutating func number(digits: ClosedRange<Int>) -> Int? {
            var end = position
            while end < bytes.count, end - position < digits.upperBound, (48...57).contains(bytes[end]) { end += 1 }
            guard digits.contains(end - position), end == bytes.count || !(48...57).contains(bytes[end]) else { return nil }
            defer { position = end }
            return bytes[position..<end].reduce(0) { $0 * 10 + Int($1 - 48) }
        }

        /// The digits of a fraction of a second (the first 9 count), as a value in [0, 1).
        mutating func fraction() -> Double {
            let start = position
            while position < bytes.count, (48...57).contains(bytes[position]) { position += 1 }
            return Double("0." + String(decoding: bytes[start..<min(position, start + 9)], as: UTF8.self)) ?? 0
        }

        /// The zone written here, as `Date._parse` cuts it after a time: letters, then a signed number with `:`, `,`
        /// or `.` in it (`UTC+8`, `-08:00`, `PST`); empty when none.
        mutating func zoneToken() -> String {
            let start = position
            while position < bytes.count, (65...90).contains(bytes[position]) || (97...122).contains(bytes[position]) { position += 1 }
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
                while position < bytes.count, (48...58).contains(bytes[position]) || bytes[position] == UInt8(ascii: ",") || bytes[position] == UInt8(ascii: ".") {
                    position += 1
                }
            }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }
    }
}
