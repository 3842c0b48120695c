public import Logging
import Synchronization

/// What a logger logged, for a test to read: each event's message and its string metadata, in order.
public final class LogRecorder: Sendable {
    private let events = Mutex<[(message: String, metadata: [String: String])]>([])

    public init() {}

    /// A logger that records here, every level.
    public func logger(label: String = "test") -> Logger {
        Logger(label: label) { [self] _ in Handler(recorder: self) }
    }

    /// The messages logged.
    public var messages: [String] { events.withLock { $0.map(\.message) } }

    /// The values of the metadata `key` of the events that had it.
    public func metadata(_ key: String) -> [String] { events.withLock { $0.compactMap { $0.metadata[key] } } }

    /// Whether a message holds `text`.
    public func contains(_ text: String) -> Bool { messages.contains { $0.contains(text) } }

    /// How many messages hold `text`.
    public func count(_ text: String) -> Int { messages.filter { $0.contains(text) }.count }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var strings: [String: String] = [:]
            for (key, value) in event.metadata ?? [:] {
                if case .string(let text) = value { strings[key] = text }
            }
            recorder.events.withLock { $0.append((event.message.description, strings)) }
        }
    }
}
