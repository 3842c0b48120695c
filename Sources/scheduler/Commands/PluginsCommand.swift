import ArgumentParser
import Engine
import Foundation
import HostSupport
import PluginAPI
import SchedulerConfig
import SchedulerService

/// `scheduler plugins`: the source plugin kinds this build hosts, and `scheduler plugins check`.
struct PluginsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the source plugin kinds (the values of `plugin:` in scheduler.yaml) with their options, or check a source's plugin.",
        subcommands: [List.self, Check.self],
        defaultSubcommand: List.self
    )

    /// `scheduler plugins [list]`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the source plugin kinds (the values of `plugin:` in scheduler.yaml) with their options."
        )

        /// The JSON form of one plugin.
        struct PluginReport: Encodable {
            var kind: String
            var summary: String
            var options: [PluginOption]
            /// The runs it does besides full ones: `incremental`, `resume`.
            var sync: [String]
        }

        @Flag(help: "Print one JSON object {plugins} instead of text.")
        var json = false

        func run() throws {
            let reports = BuiltinPlugins.registry.kinds.compactMap { kind in
                BuiltinPlugins.registry.plugin(kind: kind).map { plugin in
                    PluginReport(
                        kind: kind, summary: plugin.summary, options: plugin.options,
                        sync: [(SyncSupport.incremental, "incremental"), (.resume, "resume")].filter { plugin.sync.contains($0.0) }.map(\.1)
                    )
                }
            }
            if json {
                struct Output: Encodable { var plugins: [PluginReport] }
                return try JSONOutput.print(Output(plugins: reports))
            }
            for report in reports {
                print("\(report.kind): \(report.summary)")
                if !report.sync.isEmpty { print("  runs: full, \(report.sync.joined(separator: ", "))") }
                for option in report.options {
                    print("  \(option.name)\(option.isRequired ? " (required)" : ""): \(option.summary)")
                }
            }
        }
    }

    /// `scheduler plugins check SOURCE`.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check a source's plugin: its own test of its configuration and connection, then a dry read of its first items through the checks of a run, writing nothing.",
            discussion: "Exit status: 0 when a run would go through; 1 when the plugin's test fails, it fails, or a run would reject something; 2 when the configuration is invalid."
        )

        @Argument(help: ArgumentHelp("The source to check.", valueName: "source"))
        var source: String

        @Option(help: ArgumentHelp("The partition to check (the first by default).", valueName: "name"))
        var partition: String?

        @Option(help: ArgumentHelp("Items read at most (1–1000).", valueName: "n"))
        var items = 10

        @Flag(help: "Print one JSON object instead of text.")
        var json = false

        @OptionGroup var log: LogOptions
        @OptionGroup var config: ConfigOptions
        @OptionGroup var replica: ReplicaOptions

        func validate() throws {
            guard (1...1000).contains(items) else { throw ValidationError("--items must be between 1 and 1000") }
        }

        func run() async throws {
            AdminToken.hideSecrets()
            let configuration = try config.loadOrExit()
            let plans = configuration.plans(at: Date()).filter { $0.unit.source == source }
            guard let first = plans.first else {
                let known = configuration.scheduler.sources.map(\.name)
                throw ValidationError("'\(source)' is not a source of \(config.directory)\(NearestName.suggestion(for: source, among: known)); the sources are \(known.joined(separator: ", "))")
            }
            var plan = first
            if let partition {
                guard let chosen = plans.first(where: { $0.unit.partition == partition }) else {
                    throw ValidationError("--partition '\(partition)': the partitions of \(source) are \(plans.compactMap(\.unit.partition).joined(separator: ", "))")
                }
                plan = chosen
            }
            let dryRun = PluginDryRun(
                configuration: configuration, processes: StoreOpener.processLedger(configuration.scheduler, replicaID: replica.id),
                clock: SystemWallClock(), logger: log.makeLogger(defaultLevel: .warning)
            )
            let report = await dryRun.run(plan, limit: items)
            if json {
                try JSONOutput.print(report)
            } else {
                print(Self.describe(report))
            }
            if !report.passes { throw ExitCode(1) }
        }

        static func describe(_ report: PluginDryRun.Report) -> String {
            var lines = ["\(report.unit):"]
            switch report.check {
            case nil: lines.append("  check: the plugin has no test of its own")
            case let check?: lines.append("  check: \(check.ok ? "ok" : "FAILED") — \(check.message)")
            }
            let more = report.stoppedEarly ? " (stopped there)" : ""
            lines.append("  read: \(report.items.count) item\(report.items.count == 1 ? "" : "s")\(more), \(report.deletions) deletions, \(report.states) states")
            if let error = report.error { lines.append("  failed: \(error)") }
            lines.append("  a run would reject: " + (report.rejections.isEmpty ? "nothing" : "\(report.rejections.count)"))
            lines += report.rejections.map { "    \($0.what): \($0.reason)" }
            if !report.items.isEmpty { lines.append("  items:") }
            lines += report.items.map { "    \($0.uniqueIdentifier) — \($0.title ?? $0.displayName ?? "(no title)")" }
            return lines.joined(separator: "\n")
        }
    }
}
