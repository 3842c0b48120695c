import Foundation

/// Prints values as one JSON document on standard output, with stable key order and ISO 8601 dates.
enum JSONOutput {
    static func print(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
