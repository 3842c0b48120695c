import ArgumentParser
import Foundation
import PluginAPI

/// `--at DATE`: the instant a command decides as of, instead of now (`run-once`, `gates`): one name and one
/// parser for every command that reads the clock. An instant is ISO 8601 with its zone (`2026-12-01T00:00:00Z`); a
/// date alone (`2027-01-01`) is its midnight in the configuration's time zone (`defaults.timeZone`, else UTC).
/// `--now`, the name `run-once` had before, is still read, with a notice.
struct InstantOptions: ParsableArguments {
    @Option(
        name: .customLong("at"),
        help: ArgumentHelp(
            "Decide as of this instant (ISO 8601, such as 2026-12-01T00:00:00Z; a date alone, such as 2027-01-01, is its midnight in defaults.timeZone, else UTC) instead of now.",
            valueName: "date"
        )
    )
    var at: String?

    @Option(name: .customLong("now"), help: .hidden)
    var formerName: String?

    func validate() throws {
        if at != nil, formerName != nil { throw ValidationError("give --at only (--now is its former name)") }
        if let text = at ?? formerName, ISO8601.date(from: text) == nil, Self.day(text) == nil {
            throw ValidationError(
                "--\(at != nil ? "at" : "now") '\(text.prefix(80))' is neither an instant such as 2026-12-01T00:00:00Z (a time and its zone: Z or +01:00) nor a date such as 2026-12-01"
            )
        }
        if formerName != nil { printError("note: --now is now called --at; --now will be removed in a later version") }
    }

    /// The instant given, a date alone read at its midnight in `zone`; `nil` for now.
    func instant(in zone: TimeZone) -> Date? {
        guard let text = at ?? formerName else { return nil }
        return ISO8601.date(from: text) ?? Self.day(text).map { zone.instant(of: $0) }
    }

    /// `YYYY-MM-DD` as the midnight starting that day, when it names a real day.
    static func day(_ text: String) -> CivilDateTime? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...CivilDateTime.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return CivilDateTime(year: year, month: month, day: day)
    }
}
