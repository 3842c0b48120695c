/// A unit's gate as reports show it: `on`, `off`, or `unknown` when the configuration did not load.
public enum GateState: String, Sendable, Hashable, Codable, CaseIterable {
    case on, off, unknown
}

extension GateDecision {
    /// This decision as reports show it.
    public var state: GateState { isOn ? .on : .off }
}
