public import Foundation

/// A feature gate from `gates.yaml`: on for a unit when enabled, in a listed environment, inside its window,
/// and when the unit's rollout bucket is below the rollout share.
public struct Gate: Sendable, Hashable {
    public var name: String
    public var enabled: Bool
    /// Percent of units, 0–100, with up to two decimals (the bucket has 10,000 values).
    public var rollout: Double
    /// The environments where the gate may be on; `nil` means all.
    public var environments: [String]?
    /// The gate is off before this instant.
    public var from: Date?
    /// The gate is off from this instant on.
    public var until: Date?
}
