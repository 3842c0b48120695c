import ArgumentParser
import Logging
import PluginAPI
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
        case .text: bootstrap { VisibleTextLogHandler(wrapping: StreamLogHandler.standardError(label: $0)) }
        case .json: bootstrap { JSONLogHandler(label: $0) }
        }
    }
}

/// A text log handler whose lines show what a source wrote (an item's identifier, a program's standard error) with
/// its control and bidirectional formatting characters made visible (``VisibleText``): a log line on a terminal can
/// neither drive it nor reorder the line. (JSON lines escape their strings themselves.)
struct VisibleTextLogHandler: LogHandler {
    private var wrapped: StreamLogHandler

    init(wrapping wrapped: StreamLogHandler) {
        self.wrapped = wrapped
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(VisibleText.escaping(event.message.description, keepingLineBreaks: false))"
        event.metadata = event.metadata?.mapValues(Self.visible)
        wrapped.log(event: event)
    }

    private static func visible(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(VisibleText.escaping(text, keepingLineBreaks: false))
        case .stringConvertible(let value): .string(VisibleText.escaping(value.description, keepingLineBreaks: false))
        case .array(let values): .array(values.map(visible))
        case .dictionary(let values): .dictionary(values.mapValues(visible))
        }
    }
}
