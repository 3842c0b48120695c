public import Foundation

/// A feature gate from `gates.yaml`: decided by its own rules, or by a flag of a flagd definition file.
public struct Gate: Sendable {
    /// What decides a gate.
    public enum Decider: Sendable {
        /// The gate's own fields in `gates.yaml`.
        case rules(GateRules)
        /// A boolean flag, evaluated for each unit (`flagd: { file, flag }`).
        case flag(FlagBinding)
    }

    /// The gate's key in `gates.yaml`, which sources name.
    public var name: String
    /// What decides whether it is on.
    public var decider: Decider
}

/// A gate's own rules: on for a unit when enabled, in a listed environment, inside its window, and when the unit's
/// rollout bucket is below the rollout share.
public struct GateRules: Sendable, Hashable {
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
