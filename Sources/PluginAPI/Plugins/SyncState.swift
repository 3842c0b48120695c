public import Foundation

/// A plugin's own record of how far it got (a cursor, a file list, an `ETag`): one JSON value of at most
/// ``maxBytes``, committed with the items sent before it and handed back to the next run.
///
/// The host keeps the bytes as given; only the plugin reads them.
public struct SyncState: Sendable, Hashable {
    /// The largest state kept, in bytes of JSON.
    public static let maxBytes = 1 << 20

    /// The state's JSON text.
    public let json: Data

    /// Why a value is not a state.
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// The state `json` holds; throws when it is larger than ``maxBytes`` or not one JSON value.
    public init(json: Data) throws(Invalid) {
        guard json.count <= Self.maxBytes else {
            throw Invalid(description: "a state of \(json.count) bytes is over the limit of \(Self.maxBytes) bytes")
        }
        guard (try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])) != nil else {
            throw Invalid(description: "a state must be one JSON value")
        }
        self.json = json
    }

    /// The state of `value`, encoded as JSON with its keys sorted (the same value, the same bytes).
    public init(encoding value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try self.init(json: encoder.encode(value))
    }

    /// The state decoded as `type`.
    public func decode<Value: Decodable>(as type: Value.Type) throws -> Value {
        try JSONDecoder().decode(type, from: json)
    }
}
