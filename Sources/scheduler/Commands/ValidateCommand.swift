import ArgumentParser
import Engine
import Foundation
import HostSupport
import SchedulerConfig
import SchedulerService
import Store

/// `scheduler validate`: checks the config folder the way the service would load it.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check the configuration: exit 0 with a summary when valid, 2 with one line per problem when not.",
        discussion: """
            Problems are printed as FILE:LINE:COLUMN: MESSAGE on standard error (or as JSON with --json). A valid \
            configuration is also checked against the store it names: every unit whose gate it turns off while its \
            domain holds items is listed as a purge it would cause.
            """
    )

    /// The JSON form of the verdict.
    struct Report: Encodable {
        var valid: Bool
        var summary: String?
        var problems: [ConfigProblem]
        /// What does not make it invalid but deserves a look (a content folder not there yet), located.
        var warnings: [ConfigProblem] = []
        /// The purges the configuration would cause, one sentence each (empty when the store holds nothing to purge).
        var wouldPurge: [String] = []
        /// The restorable purges the configuration would undo (gates on again within their grace), one sentence each.
        var wouldRestore: [String] = []
    }

    @Flag(help: "Print one JSON object {valid, summary, problems, warnings, wouldPurge, wouldRestore} on standard output.")
    var json = false

    @Flag(
        name: .customLong("no-store"),
        help: "Check the files alone, without opening the store (opening it lists the purges the configuration would cause, and upgrades an SQLite file to this release's schema as every command that opens it does)."
    )
    var noStore = false

    @OptionGroup var config: ConfigOptions

    func run() async throws {
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
        let (purges, restores) = noStore ? ([], []) : await Self.storeChanges(loaded)
        if json {
            return try JSONOutput.print(
                Report(valid: true, summary: summary, problems: [], warnings: loaded.warnings, wouldPurge: purges, wouldRestore: restores)
            )
        }
        loaded.warnings.forEach { printError("warning: \(config.located($0))") }
        print(summary)
        (purges + restores).forEach { print($0) }
    }

    /// What `configuration` would purge from the store it names, as a pass would decide it now (a unit whose gate is
    /// validly off while its domain holds items or its success is remembered), and the restorable purges it would undo
    /// (a unit whose gate is on again within its purge's grace). Nothing for a database file that does
    /// not exist yet; a store that cannot be read is said on standard error, and the configuration is still valid.
    static func storeChanges(_ configuration: SchedulerConfiguration) async -> (purges: [String], restores: [String]) {
        if case .sqlite(let path) = configuration.scheduler.store, !FileManager.default.fileExists(atPath: path) { return ([], []) }
        do {
            // A store that does not answer (a database out of reach from where the config is checked) holds it 10 s.
            let report = try await withThrowingTaskGroup(of: StatusReport?.self) { group in
                group.addTask {
                    try await StoreOpener.withStore(configuration.scheduler, clock: SystemWallClock(), logger: CommandLogger.make()) { store in
                        try await StatusReport.make(configuration: .success(configuration), store: store, now: Date())
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(10))
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            guard let report else {
                printError("the store did not answer within 10 s: what this configuration would purge is not listed (--no-store skips the store)")
                return ([], [])
            }
            let restores = report.units.filter { $0.gate == .on && $0.restorableUntil != nil }.map { unit in
                "would restore \(unit.unit) (\(unit.domain)): its gate is on again within the grace of its purge"
            }
            let purges = report.units.filter { $0.gate == .off && $0.restorableUntil == nil && ($0.items > 0 || $0.lastSuccess != nil) }.map { unit in
                "would purge \(unit.unit) (\(unit.domain), \(unit.items) item\(unit.items == 1 ? "" : "s")): \(unit.gateReason ?? "its gate is off")"
            }
            return (purges, restores)
        } catch {
            printError("could not read the store to list what this configuration would purge: \(error)")
            return ([], [])
        }
    }
}
