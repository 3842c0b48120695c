import Foundation

/// A JSON value as flagd flag definitions and evaluation contexts hold them: a variant's value, a literal in a
/// targeting rule, an attribute of the context, the result of an operator.
///
/// Texts are equal when their bytes are, as in flagd (Go): Swift's own `==` on strings would also call canonically
/// equivalent spellings equal (`é` and `e` + combining acute), which flagd does not.
public enum FlagValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([FlagValue])
    case object([String: FlagValue])

    /// Truthiness as JsonLogic defines it: `null`, `false`, `0`, `""` and `[]` are false; everything else is true.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .number(let value): value != 0 && !value.isNaN
        case .string(let value): !value.isEmpty
        case .array(let values): !values.isEmpty
        case .object: true
        }
    }

    /// The text JsonLogic's `cat` makes of the value: numbers without a needless `.0`, `null` as nothing.
    public var text: String {
        switch self {
        case .null: ""
        case .bool(let value): value ? "true" : "false"
        case .number(let value): FlagValue.format(value)
        case .string(let value): value
        case .array(let values): values.map(\.text).joined(separator: ",")
        case .object: "[object Object]"
        }
    }

    /// ``text``, or `nil` when it would be longer than `limit` bytes: an array of a long text repeated is built no
    /// further than the limit.
    func text(atMost limit: Int) -> String? {
        guard case .array(let values) = self else {
            let whole = text
            return whole.utf8.count <= limit ? whole : nil
        }
        var joined = ""
        for (index, value) in values.enumerated() {
            if index > 0 { joined += "," }
            guard let piece = value.text(atMost: limit - joined.utf8.count) else { return nil }
            joined += piece
        }
        return joined.utf8.count <= limit ? joined : nil
    }

    /// The value as a number, as JavaScript converts one for a comparison: `nil` when it is not a number (`NaN`).
    var numeric: Double? {
        switch self {
        case .null: return 0
        case .bool(let value): return value ? 1 : 0
        case .number(let value): return value.isNaN ? nil : value
        case .string(let value):
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            // Decimal digits only: Swift would also read "nan", "inf" and hexadecimal, which JavaScript does not.
            guard trimmed.allSatisfy({ "0123456789+-.eE".contains($0) }) else { return nil }
            return trimmed.isEmpty ? 0 : Double(trimmed)
        case .array, .object: return nil
        }
    }

    /// `value` as JavaScript prints a number: whole numbers without a fraction.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// The name of the value's type, for messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension FlagValue {
    /// Equal as flagd (Go) finds them: texts by their bytes, so canonically equivalent Unicode texts differ.
    public static func == (left: FlagValue, right: FlagValue) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case (.bool(let l), .bool(let r)): l == r
        case (.number(let l), .number(let r)): l == r
        case (.string(let l), .string(let r)): l.utf8.elementsEqual(r.utf8)
        case (.array(let l), .array(let r)): l == r
        case (.object(let l), .object(let r)): l.count == r.count && l.allSatisfy { key, value in r[key] == value }
        default: false
        }
    }

    /// Hashes what ``==`` compares (an object by its size only).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value.utf8.count); for byte in value.utf8 { hasher.combine(byte) }
        case .array(let values): hasher.combine(values)
        case .object(let object): hasher.combine(object.count)
        }
    }
}
