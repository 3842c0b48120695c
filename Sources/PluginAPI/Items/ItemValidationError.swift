/// An item that cannot be indexed, with the field at fault and what is wrong with it.
public struct ItemValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON name of the field at fault, such as `rankingHint`; empty when the whole item is at fault.
    public var field: String
    /// What is wrong, in words a user can act on.
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String {
        field.isEmpty ? reason : "\(field): \(reason)"
    }
}
