/// Thrown by a plugin handed a state it cannot use (an earlier format, a cursor the source no longer knows): the host
/// then runs a full sync of the unit instead, at once. What the plugin sent before throwing stays written.
public struct SyncStateUnusable: Error, Sendable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { "the state could not be used: \(reason)" }
}
