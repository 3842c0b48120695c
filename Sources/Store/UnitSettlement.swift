public import Foundation

/// One unit a pass found with nothing to do, and until when it needs no decision: written by
/// ``SchedulerStore/settle(_:under:completing:)`` unless the unit's state changed since the pass read it (its last
/// attempt or its result differ), in which case the next pass decides it again.
public struct UnitSettlement: Sendable, Hashable {
    public var unit: String
    /// Until when the unit needs no decision; `nil`: the next pass decides it.
    public var until: Date?
    /// The state's last attempt as the pass read it.
    public var lastAttemptAt: Date?
    /// The state's last result as the pass read it.
    public var lastResult: UnitResult?

    /// The settlement of `state`'s unit until `until`.
    public init(_ state: UnitState, until: Date?) {
        unit = state.unit
        self.until = until
        lastAttemptAt = state.lastAttemptAt
        lastResult = state.lastResult
    }
}
