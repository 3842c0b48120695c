import ArgumentParser
import Logging
import Synchronization

/// The logger commands hand to the libraries. Only the executable configures logging, once per process.
enum CommandLogger {
    /// How log lines are written.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    /// A logger for a one-shot command: text, warnings and errors only.
    static func make() -> Logger {
        make(format: .text, level: .warning)
    }

    /// A logger writing `format` to standard error from `level` up.
    static func make(format: Format, level: Logger.Level) -> Logger {
        LoggingSystem.bootstrap(format: format)
        var logger = Logger(label: "scheduler")
        logger.logLevel = level
        return logger
    }
}

extension LoggingSystem {
    private static let bootstrapped = Mutex(false)

    /// Sends every logger to standard error in `format`; the first call in a process wins.
    static func bootstrap(format: CommandLogger.Format) {
        let first = bootstrapped.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        switch format {
        case .text: bootstrap(StreamLogHandler.standardError)
        case .json: bootstrap { JSONLogHandler(label: $0) }
        }
    }
}
