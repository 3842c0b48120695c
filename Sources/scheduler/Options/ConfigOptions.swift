import ArgumentParser
import SchedulerConfig
import Foundation
import PluginAPI

/// `--config DIR`: the folder holding scheduler.yaml, gates.yaml and experiments.yaml.
struct ConfigOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The configuration folder holding scheduler.yaml, gates.yaml and experiments.yaml (default: $SCHEDULER_CONFIG, or 'config').",
            valueName: "dir"
        )
    )
    var config: String?

    /// The configuration folder in force.
    var directory: String {
        config ?? ProcessInfo.processInfo.environment["SCHEDULER_CONFIG"] ?? "config"
    }

    /// A file given for the folder (`--config config/scheduler.yaml`, the commonest slip) is named with the folder
    /// to give instead, not reported as a folder missing its files.
    func validate() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), !isFolder.boolValue else { return }
        let folder = URL(fileURLWithPath: directory).deletingLastPathComponent().relativePath
        let named = config != nil ? "--config" : "SCHEDULER_CONFIG"
        throw ValidationError("\(named) names the file \(directory); it takes the folder holding scheduler.yaml and gates.yaml: \(named == "--config" ? "--config " : "")\(folder)")
    }

    var loader: ConfigLoader {
        ConfigLoader(directory: directory, registry: BuiltinPlugins.registry)
    }

    /// `problem` with its file shown as a path under the config folder (an absolute one as it is), ready to open
    /// in an editor.
    func located(_ problem: ConfigProblem) -> String {
        var shown = problem
        if problem.file.hasPrefix("/") {
            shown.file = problem.file
        } else if directory.hasPrefix("/") {
            shown.file = (directory as NSString).appendingPathComponent(problem.file)
        } else {
            shown.file = URL(fileURLWithPath: directory).appendingPathComponent(problem.file).relativePath
        }
        return shown.description
    }

    /// The configuration; when it is invalid, prints its problems and exits 2.
    func loadOrExit() throws -> SchedulerConfiguration {
        do {
            return try loader.load()
        } catch {
            error.problems.forEach { printError(located($0)) }
            throw ExitCode(2)
        }
    }
}
