import ArgumentParser
import Engine
import Foundation

/// `--source NAME` of an operator's command on one source (pause, resume, cancel), and who runs it.
struct SourceOption: ParsableArguments {
    @Option(help: ArgumentHelp("The source, as scheduler.yaml names it.", valueName: "name"))
    var source: String

    /// The sources of the configuration `config` loads (exit 2, with its problems, when it is invalid), `source`
    /// among them unless `allowingUnknown`: else a usage error naming the nearest one.
    func sources(in config: ConfigOptions, allowingUnknown: Bool = false) throws -> [String] {
        let sources = try config.loadOrExit().scheduler.sources.map(\.name)
        guard !allowingUnknown else { return sources }
        do {
            try KnownSources.require(source, among: sources)
        } catch {
            throw ValidationError(error.description)
        }
        return sources
    }

    /// Who acts, as a pause or a cancel records it: the command, the user and the host.
    static func actor(_ command: String) -> String {
        "scheduler \(command) (\(ProcessInfo.processInfo.userName)@\(ProcessInfo.processInfo.hostName))"
    }
}
