public import Foundation

/// What the store remembers of every unit, and how the pass settles them: the role the pass reads first. One role of a ``SchedulerStore``.
public protocol UnitStateStore: Sendable {
    /// Every unit the store remembers, by unit key.
    func units() async throws -> [String: UnitState]

    /// The units a pass settled under `signature` must decide at `now` (the due index): those the pass settled
    /// under another signature or not at all, those whose state changed since (every change but ``settle(_:under:completing:)``
    /// unsettles a unit), and those settled until `now` or before. One query, whatever the number of units.
    func unitsToDecide(at now: Date, settledUnder signature: String) async throws -> [String: UnitState]

    /// Records, in one transaction, until when each unit needs no decision (``UnitState/settledUntil``) under the
    /// pass's `signature`, skipping a unit whose state changed since the pass read it; then, with `completing`, that
    /// a whole pass settled every unit of the configuration it signs (``PassSettlement``).
    func settle(_ units: [UnitSettlement], under signature: String, completing: PassSettlement?) async throws

    /// What the last whole pass that settled every unit recorded; `nil` before the first.
    func passSettlement() async throws -> PassSettlement?

    /// What the store remembers of one unit, `nil` for a unit never run: read under the unit's lease before it
    /// runs, so it costs one row whatever the number of units.
    func unit(_ key: String) async throws -> UnitState?

    /// Marks the attempts still `running` as `interrupted` and returns them: called by a pass that holds the
    /// pass lock. With leases, only the units whose lease is not live are marked: another replica may be running
    /// the others.
    func markInterrupted() async throws -> [UnitState]
}
