import ArgumentParser
import Logging

/// `--log-format` and `--log-level`: how much of the engine's and the plugins' log a command writes to standard error.
struct LogOptions: ParsableArguments {
    @Option(help: "Log lines as text or json (one object per line), on standard error.")
    var logFormat: CommandLogger.Format = .text

    @Option(help: ArgumentHelp("The lowest level logged: trace, debug, info, notice, warning, error, critical (default: info for run, warning for run-once).", valueName: "level"))
    var logLevel: String?

    func validate() throws {
        guard let logLevel, Logger.Level(rawValue: logLevel) == nil else { return }
        throw ValidationError("--log-level '\(logLevel)' is not one of trace, debug, info, notice, warning, error, critical")
    }

    /// The logger these options ask for; `level` unless `--log-level` names another.
    func makeLogger(defaultLevel level: Logger.Level) -> Logger {
        CommandLogger.make(format: logFormat, level: logLevel.flatMap(Logger.Level.init(rawValue:)) ?? level)
    }
}
