import ArgumentParser
import Foundation
import PluginAPI

/// `--at DATE`: the instant a command decides as of, instead of now (`run-once`, `gates`): one name and one
/// parser for every command that reads the clock. `--now`, the name `run-once` had before, is still read, with a
/// notice.
struct InstantOptions: ParsableArguments {
    @Option(name: .customLong("at"), help: ArgumentHelp("Decide as of this instant (ISO 8601, such as 2026-12-01T00:00:00Z) instead of now.", valueName: "date"))
    var at: String?

    @Option(name: .customLong("now"), help: .hidden)
    var formerName: String?

    func validate() throws {
        if at != nil, formerName != nil { throw ValidationError("give --at only (--now is its former name)") }
        if let text = at ?? formerName, ISO8601.date(from: text) == nil {
            throw ValidationError("--\(at != nil ? "at" : "now") '\(text)' is not an ISO 8601 date such as 2026-12-01T00:00:00Z")
        }
        if formerName != nil { printError("note: --now is now called --at; --now will be removed in a later version") }
    }

    /// The instant given, or `nil` for now.
    var instant: Date? { (at ?? formerName).flatMap(ISO8601.date(from:)) }
}
