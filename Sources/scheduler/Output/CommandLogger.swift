import Logging

/// The logger commands hand to the libraries. Only the executable configures logging.
enum CommandLogger {
    static func make() -> Logger {
        LoggingSystem.bootstrapOnce
        var logger = Logger(label: "scheduler")
        logger.logLevel = .warning
        return logger
    }
}

extension LoggingSystem {
    /// Logs to standard error; runs once per process.
    static let bootstrapOnce: Void = LoggingSystem.bootstrap(StreamLogHandler.standardError)
}
