public import Foundation

/// Reads and writes instants as ISO 8601 text (the RFC 3339 profile), strictly: a real calendar date, a real
/// time, a time zone honoured, nothing after it.
///
/// `2027-01-31T10:00:00Z`, `2027-01-31T10:00:00.125+02:00`, `2027-01-31t10:00:00-0500`. Refused, where a lenient
/// parser would guess: February 30 (no rolling into March), hour 25, second 60, a time without a zone, trailing
/// text (`2013-05-06garbage`). Front matter may also write `2027-01-31 10:00:00 +0200` and a bare date.
public enum ISO8601 {
    /// Forms some writers use beyond the strict one.
    public struct Forms: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// A bare date, `2027-01-31`, read as midnight UTC (or in the local zone given to `parse`).
        public static let dateOnly = Forms(rawValue: 1)
        /// A space between the date and the time, and before the zone: `2027-01-31 10:00:00 +0200` (Jekyll, YAML).
        public static let spaces = Forms(rawValue: 2)
    }

    /// Why a text is not an instant.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }

        public init(reason: String) { self.reason = reason }
    }

    private static let formatter = Date.ISO8601FormatStyle()
    private static let fractionalFormatter = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The instant `text` names, or `nil` when it is not strict ISO 8601 with a time zone.
    public static func date(from text: String) -> Date? {
        try? parse(text)
    }

    /// The instant `text` names, in the strict form or one of `forms`.
    ///
    /// With a `localZone`, a date or time written without a zone is a wall-clock time there (as static site
    /// generators read front matter in the site's zone); without one, it is refused.
    public static func parse(_ text: String, allowing forms: Forms = [], localZone: TimeZone? = nil) throws(ParseError) -> Date {
        guard text.utf8.count <= 64 else { throw ParseError(reason: "longer than an ISO 8601 date can be") }
        var scanner = Scanner(bytes: Array(text.utf8))
        guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"), let day = scanner.digits(2) else {
            throw ParseError(reason: "not a date such as 2027-01-31T10:00:00Z")
        }
        guard (1...12).contains(month), (1...CivilDateTime.daysIn(month: month, year: year)).contains(day), year >= 1 else {
            throw ParseError(reason: "\(text.prefix(10)) is not a day of the calendar")
        }
        if scanner.isAtEnd {
            guard forms.contains(.dateOnly) else { throw ParseError(reason: "a date without a time and time zone, such as 2027-01-31T00:00:00Z") }
            let midnight = CivilDateTime(year: year, month: month, day: day)
            return localZone?.instant(of: midnight) ?? Date(timeIntervalSince1970: TimeInterval(midnight.secondsSinceEpoch))
        }
        guard scanner.take("T") || scanner.take("t") || (forms.contains(.spaces) && scanner.take(" ")) else {
            throw ParseError(reason: "'\(text.prefix(40))' has something other than a time after its date")
        }
        guard let hour = scanner.digits(2), scanner.take(":"), let minute = scanner.digits(2), scanner.take(":"), let second = scanner.digits(2) else {
            throw ParseError(reason: "the time must be HH:MM:SS, as in 2027-01-31T10:00:00Z")
        }
        guard hour <= 23, minute <= 59, second <= 59 else { throw ParseError(reason: "\(text.prefix(40)) is not a time of day") }
        var fraction = 0.0
        if scanner.take(".") || scanner.take(",") {
            guard let (value, count) = scanner.fraction(), count <= 9 else { throw ParseError(reason: "the fraction of a second must be 1 to 9 digits") }
            fraction = value
        }
        if forms.contains(.spaces) { _ = scanner.take(" ") }
        let civil = CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        let offset: Int
        if scanner.isAtEnd, let localZone {
            return localZone.instant(of: civil) + fraction
        } else if scanner.take("Z") || scanner.take("z") {
            offset = 0
        } else if let sign = scanner.sign() {
            guard let hours = scanner.digits(2) else { throw ParseError(reason: "the zone must be Z, +HH:MM or +HHMM") }
            _ = scanner.take(":")
            guard let minutes = scanner.digits(2), hours <= 23, minutes <= 59 else {
                throw ParseError(reason: "the zone must be Z, +HH:MM or +HHMM")
            }
            offset = sign * (hours * 3600 + minutes * 60)
        } else if scanner.isAtEnd {
            throw ParseError(reason: "'\(text.prefix(40))' has no time zone; add Z for UTC or an offset such as +02:00")
        } else {
            throw ParseError(reason: "the zone must be Z, +HH:MM or +HHMM")
        }
        guard scanner.isAtEnd else { throw ParseError(reason: "'\(text.prefix(40))' goes on after its time zone") }
        return Date(timeIntervalSince1970: TimeInterval(civil.secondsSinceEpoch - offset) + fraction)
    }

    /// `date` as ISO 8601 in UTC, with fractional seconds only when it has them.
    public static func string(from date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        return seconds == seconds.rounded() ? formatter.format(date) : fractionalFormatter.format(date)
    }

    /// Reads ASCII fields off the front of the text.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        /// Exactly `count` ASCII digits as a number.
        mutating func digits(_ count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            position += count
            return value
        }

        /// The digits of a fraction as a value in [0, 1), and how many there were.
        mutating func fraction() -> (Double, Int)? {
            let start = position
            while position < bytes.count, (48...57).contains(bytes[position]) { position += 1 }
            guard position > start, let value = Double("0." + String(decoding: bytes[start..<position], as: UTF8.self)) else { return nil }
            return (value, position - start)
        }

        mutating func sign() -> Int? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }
    }
}
