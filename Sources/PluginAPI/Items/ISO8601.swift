public import Foundation

/// Reads and writes instants as ISO 8601 text, with or without fractional seconds.
public enum ISO8601 {
    private static let whole = Date.ISO8601FormatStyle()
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The instant `text` names, or `nil` when it is not ISO 8601 with a time zone.
    public static func date(from text: String) -> Date? {
        guard text.utf8.count <= 64 else { return nil }
        return (try? whole.parse(text)) ?? (try? fractional.parse(text))
    }

    /// `date` as ISO 8601 in UTC, with fractional seconds only when it has them.
    public static func string(from date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        return seconds == seconds.rounded() ? whole.format(date) : fractional.format(date)
    }
}
