import ArgumentParser
import SchedulerConfig

/// `scheduler validate`: checks the config folder the way the service would load it.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check the configuration: exit 0 with a summary when valid, 2 with one line per problem when not.",
        discussion: "Problems are printed as FILE:LINE:COLUMN: MESSAGE on standard error (or as JSON with --json)."
    )

    /// The JSON form of the verdict.
    struct Report: Encodable {
        var valid: Bool
        var summary: String?
        var problems: [ConfigProblem]
    }

    @Flag(help: "Print one JSON object {valid, summary, problems} on standard output.")
    var json = false

    @OptionGroup var config: ConfigOptions

    func run() throws {
        let loaded: SchedulerConfiguration
        do {
            loaded = try config.loader.load()
        } catch {
            if json {
                try JSONOutput.print(Report(valid: false, summary: nil, problems: error.problems))
            } else {
                error.problems.forEach { printError(config.located($0)) }
            }
            throw ExitCode(2)
        }
        let sources = loaded.scheduler.sources.count, units = loaded.units.count
        let summary = "\(config.directory) is valid: \(sources) source\(sources == 1 ? "" : "s") (\(units) unit\(units == 1 ? "" : "s")), "
            + "\(loaded.gates.count) gate\(loaded.gates.count == 1 ? "" : "s"), "
            + "\(loaded.experiments.count) experiment\(loaded.experiments.count == 1 ? "" : "s")"
        if json { return try JSONOutput.print(Report(valid: true, summary: summary, problems: [])) }
        print(summary)
    }
}
