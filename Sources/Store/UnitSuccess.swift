public import Foundation

/// What a successful run records about its unit, in the same commit as its final change to the index.
public struct UnitSuccess: Sendable, Hashable {
    /// The unit as the run found it (its key, source and domain).
    public var unit: UnitState
    /// The new last-indexed date.
    public var finishedAt: Date
    /// The fingerprint of the settings the run used.
    public var fingerprint: String
    /// How many distinct items the run produced.
    public var itemCount: Int

    public init(unit: UnitState, finishedAt: Date, fingerprint: String, itemCount: Int) {
        self.unit = unit
        self.finishedAt = finishedAt
        self.fingerprint = fingerprint
        self.itemCount = itemCount
    }
}
