public import Foundation

/// Whether a gate is on for a unit, and why, in words an operator can check.
public struct GateDecision: Sendable, Hashable, Codable {
    public var state: GateState
    /// Such as "on: within the rollout of 50% (this unit is in from 12.05%)", "off: gate disabled" or "on: flag 'spotlight-index' in
    /// flags.flagd.json served 'on' (TARGETING_MATCH)".
    public var reason: String
    /// For a gate a flagd flag decides: the flag, the variant served and why.
    public var flag: FlagVerdict?

    /// Whether the unit may run. A gate that is not on is off (its domain is purged) or unknown (held).
    public var isOn: Bool { state == .on }
}

extension Gate {
    /// Evaluates the gate for `unit` in `environment` at `date`.
    public func evaluate(unit: Unit, environment: String, at date: Date) -> GateDecision {
        switch decider {
        case .rules(let rules): rules.evaluate(gate: name, unit: unit.key, environment: environment, at: date)
        case .flag(let binding): binding.decideGate(for: unit, environment: environment, at: date)
        }
    }
}

extension GateRules {
    /// Enabled, environment listed, inside the window, and the unit's rollout bucket below the rollout share.
    func evaluate(gate: String, unit: String, environment: String, at date: Date) -> GateDecision {
        func decision(_ isOn: Bool, _ reason: String) -> GateDecision { GateDecision(state: isOn ? .on : .off, reason: reason) }
        guard enabled else { return decision(false, "off: gate '\(gate)' is disabled") }
        if let environments, !environments.contains(environment) {
            return decision(false, "off: environment '\(environment)' is not in \(environments)")
        }
        if let from, date < from {
            return decision(false, "off: before the window opens at \(ISO8601Text.format(from))")
        }
        if let until, date >= until {
            return decision(false, "off: the window closed at \(ISO8601Text.format(until))")
        }
        let bucket = Bucketing.rolloutBucket(gate: gate, unit: unit)
        let threshold = Int((rollout * 100).rounded())
        let share = rollout == rollout.rounded() ? String(Int(rollout)) : String(rollout)
        // The unit is in once the rollout passes its bucket: from (bucket + 1) hundredths of a percent.
        let joins = Self.percent(hundredths: bucket + 1)
        if threshold >= 10_000 { return decision(true, "on: rolled out to every unit (rollout 100%)") }
        return bucket < threshold
            ? decision(true, "on: within the rollout of \(share)% (this unit is in from \(joins)%)")
            : decision(false, "off: not rolled out to this unit yet (rollout \(share)%; it is in from \(joins)%)")
    }

    /// `hundredths` of a percent as people write it: `7278` is `72.78`, `5000` is `50`.
    static func percent(hundredths: Int) -> String {
        let whole = hundredths / 100, rest = hundredths % 100
        return rest == 0 ? "\(whole)" : rest.isMultiple(of: 10) ? "\(whole).\(rest / 10)" : "\(whole).\(rest < 10 ? "0" : "")\(rest)"
    }
}

extension FlagBinding {
    /// A boolean flag decides: `true` is on, `false` off, a `DISABLED` flag off (the domain is purged, as for
    /// `enabled: false`); a flag that fails or serves no boolean holds the unit.
    func decideGate(for unit: Unit, environment: String, at date: Date) -> GateDecision {
        let resolution = resolve(for: unit, environment: environment, at: date)
        let verdict = verdict(resolution)
        if let failure = failure(of: resolution) {
            return GateDecision(state: .unknown, reason: "held: \(failure)", flag: verdict)
        }
        if resolution.reason == .disabled {
            return GateDecision(state: .off, reason: "off: flag '\(flag)' in \(file) is DISABLED", flag: verdict)
        }
        guard case .bool(let isOn)? = resolution.value, let variant = resolution.variant else {
            return GateDecision(
                state: .unknown,
                reason: "held: flag '\(flag)' in \(file) served \(resolution.value.map { "a value of type \($0.typeName)" } ?? "no variant"), not true or false",
                flag: verdict
            )
        }
        return GateDecision(
            state: isOn ? .on : .off, reason: "\(isOn ? "on" : "off"): flag '\(flag)' in \(file) served '\(variant)' (\(resolution.reason.rawValue))",
            flag: verdict
        )
    }
}

/// ISO 8601 text for reasons and reports.
enum ISO8601Text {
    static func format(_ date: Date) -> String { date.formatted(.iso8601) }
}
