import Foundation

/// Turns one line of NDJSON into a validated ``SearchableItem``, or says why it cannot.
public struct NDJSONItemDecoder: Sendable {
    /// The limits items must respect.
    public var limits: ItemLimits

    public init(limits: ItemLimits = .standard) {
        self.limits = limits
    }

    /// The item a line describes, validated; blank lines give `nil`.
    public func decode(_ line: [UInt8]) throws(ItemValidationError) -> SearchableItem? {
        guard line.contains(where: { !Self.isWhitespace($0) }) else { return nil }
        let fields: ItemJSONReader.Fields
        switch try? ItemJSONReader.read(line) {
        case .object(let read)?: fields = read
        case .other?: throw ItemValidationError(field: "", reason: "expected a JSON object")
        case .null?, nil: throw ItemJSONReader.notJSON
        }
        if let unknown = SearchableItem.unknownFieldError(fields.unknown) { throw unknown }
        let item: SearchableItem
        do {
            item = try SearchableItem(fields: fields)
        } catch let error as ItemValidationError {
            throw error
        } catch {
            throw ItemValidationError(field: "", reason: "\(error)")
        }
        try item.validate(limits: limits)
        return item
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }
}
