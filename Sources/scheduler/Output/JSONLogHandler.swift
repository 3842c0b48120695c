import Foundation
import Logging

/// Writes each log record as one JSON object per line on standard error: `time`, `level`, `label`,
/// `message`, and the metadata as further keys (`--log-format json`, for log collectors).
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var record: [String: String] = [
            "time": Date().formatted(.iso8601.time(includingFractionalSeconds: true).year().month().day().dateTimeSeparator(.standard)),
            "level": event.level.rawValue, "label": label, "message": "\(event.message)",
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) where record[key] == nil {
            record[key] = "\(value)"
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let line = try? encoder.encode(record) else { return }
        FileHandle.standardError.write(line + Data("\n".utf8))
    }
}
