import ArgumentParser
import PluginAPI

/// `scheduler plugins`: the source plugin kinds this build hosts, and their options.
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the source plugin kinds (the values of `plugin:` in scheduler.yaml) with their options."
    )

    /// The JSON form of one plugin.
    struct PluginReport: Encodable {
        var kind: String
        var summary: String
        var options: [PluginOption]
    }

    @Flag(help: "Print one JSON object {plugins} instead of text.")
    var json = false

    func run() throws {
        let reports = BuiltinPlugins.registry.kinds.compactMap { kind in
            BuiltinPlugins.registry.plugin(kind: kind).map { PluginReport(kind: kind, summary: $0.summary, options: $0.options) }
        }
        if json {
            struct Output: Encodable { var plugins: [PluginReport] }
            return try JSONOutput.print(Output(plugins: reports))
        }
        for report in reports {
            print("\(report.kind): \(report.summary)")
            for option in report.options {
                print("  \(option.name)\(option.isRequired ? " (required)" : ""): \(option.summary)")
            }
        }
    }
}
