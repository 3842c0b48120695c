/// A unit's gate as reports show it: `on`, `off`, or `unknown` when the configuration did not load or the gate's
/// flag did not resolve (the unit is then held: nothing runs and nothing is purged).
public enum GateState: String, Sendable, Hashable, Codable, CaseIterable {
    case on, off, unknown
}
