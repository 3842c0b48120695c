public import Foundation

/// Whether a gate is on for a unit, and why, in words an operator can check.
public struct GateDecision: Sendable, Hashable, Codable {
    public var isOn: Bool
    /// Such as "on: unit bucket 1204 < rollout 50%" or "off: gate disabled".
    public var reason: String
}

extension Gate {
    /// Evaluates the gate for `unit` in `environment` at `date`: enabled, environment listed, inside the window,
    /// and the unit's rollout bucket below the rollout share.
    public func evaluate(unit: String, environment: String, at date: Date) -> GateDecision {
        guard enabled else { return GateDecision(isOn: false, reason: "off: gate '\(name)' is disabled") }
        if let environments, !environments.contains(environment) {
            return GateDecision(isOn: false, reason: "off: environment '\(environment)' is not in \(environments)")
        }
        if let from, date < from {
            return GateDecision(isOn: false, reason: "off: before the window opens at \(ISO8601Text.format(from))")
        }
        if let until, date >= until {
            return GateDecision(isOn: false, reason: "off: the window closed at \(ISO8601Text.format(until))")
        }
        let bucket = Bucketing.rolloutBucket(gate: name, unit: unit)
        let threshold = Int((rollout * 100).rounded())
        let share = rollout == rollout.rounded() ? String(Int(rollout)) : String(rollout)
        return bucket < threshold
            ? GateDecision(isOn: true, reason: "on: unit bucket \(bucket) < rollout \(share)%")
            : GateDecision(isOn: false, reason: "off: unit bucket \(bucket) ≥ rollout \(share)%")
    }
}

/// ISO 8601 text for reasons and reports.
enum ISO8601Text {
    static func format(_ date: Date) -> String { date.formatted(.iso8601) }
}
