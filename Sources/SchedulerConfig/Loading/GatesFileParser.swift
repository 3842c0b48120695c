import Foundation
import PluginAPI
import YAML

/// Reads `gates.yaml`: `gates:` mapping each name to `enabled`, `rollout`, `environments`, `from`, `until`, or to
/// `flagd: { file, flag }` alone.
struct GatesFileParser {
    static let gateKeys = ["enabled", "rollout", "environments", "from", "until", "flagd"]

    let reader: NodeReader
    let flagFiles: FlagFiles

    /// An environment a gate names, where it names it: checked against the environments `scheduler.yaml` declares.
    struct EnvironmentReference {
        var gate: String
        var name: String
        var node: YAMLNode
    }

    /// The valid gates, and the names of every gate the file declares (valid or not), so references to a
    /// declared gate are not reported twice; `declared` is `nil` when the file defines no gates at all.
    func parse(_ root: YAMLNode?) -> (gates: [String: Gate], declared: Set<String>?) {
        var references: [EnvironmentReference] = []
        return parse(root, environments: &references)
    }

    /// ``parse(_:)``, and every environment the gates name, with its node.
    func parse(_ root: YAMLNode?, environments references: inout [EnvironmentReference]) -> (gates: [String: Gate], declared: Set<String>?) {
        guard let root, let top = reader.mapping(root, "gates.yaml", known: ["gates"]),
            let gatesNode = top.first(where: { $0.key == "gates" })?.value
        else {
            reader.problem(root, "must define 'gates:' with at least one gate; an empty gates file is not 'all gates off'")
            return ([:], nil)
        }
        guard let entries = reader.mapping(gatesNode, "gates") else { return ([:], nil) }
        guard !entries.isEmpty else {
            reader.problem(gatesNode, "'gates:' must define at least one gate; an empty list is not 'all gates off'")
            return ([:], nil)
        }
        var gates: [String: Gate] = [:]
        var declared: Set<String> = []
        for entry in entries {
            guard let name = reader.name(entry.keyNode, "gate name") else { continue }
            declared.insert(name)
            if let gate = parseGate(name, entry.value) { gates[name] = gate }
            for node in entry.value["environments"]?.elements ?? [] {
                if let environment = node.scalarText { references.append(EnvironmentReference(gate: name, name: environment, node: node)) }
            }
        }
        return (gates, declared)
    }

    /// Reports each reference to an environment outside `known` (the service's own and those `scheduler.yaml`
    /// declares): a misspelt environment would turn its gate off everywhere, and purge.
    func check(_ references: [EnvironmentReference], known: [String]) {
        for reference in references where !known.contains(reference.name) {
            reader.problem(
                reference.node,
                "gate '\(reference.gate)': unknown environment '\(YAMLErrorText.oneLine(reference.name).prefix(80))'"
                    + "\(NearestName.suggestion(for: reference.name, among: known)); the environments are \(known.joined(separator: ", ")) "
                    + "(scheduler.yaml's 'environment' and 'environments': declare a new one there)"
            )
        }
    }

    private func parseGate(_ name: String, _ node: YAMLNode) -> Gate? {
        guard let fields = reader.mapping(node, "gate '\(name)'", known: Self.gateKeys) else { return nil }
        if let flagd = fields.first(where: { $0.key == "flagd" }) {
            if let other = fields.first(where: { $0.key != "flagd" }) {
                reader.problem(other.keyNode, "gate '\(name)': '\(other.key)' cannot be set beside 'flagd:'; the flag decides the gate alone (write its rules in the flag's targeting)")
                return nil
            }
            return flagFiles.binding(flagd.value, reader: reader, what: "gate '\(name)'", kind: .boolean).map { Gate(name: name, decider: .flag($0)) }
        }
        var gate = GateRules(enabled: false, rollout: 100, environments: nil, from: nil, until: nil)
        var valid = true
        if !fields.contains(where: { $0.key == "enabled" }) {
            reader.problem(node, "gate '\(name)' needs 'enabled: true' or 'enabled: false' (or 'flagd: { file, flag }')")
            valid = false
        }
        for (key, _, value) in fields {
            switch key {
            case "enabled": gate.enabled = reader.bool(value, "enabled") ?? { valid = false; return false }()
            case "rollout":
                if let rollout = reader.number(value, "rollout", in: 0...100) {
                    if (rollout * 100).rounded() != rollout * 100 {
                        reader.problem(value, "rollout has at most two decimals (the unit bucket has 10,000 values)")
                        valid = false
                    }
                    gate.rollout = rollout
                } else { valid = false }
            case "environments": gate.environments = reader.stringList(value, "environments") ?? { valid = false; return nil }()
            case "from": gate.from = reader.date(value, "from") ?? { valid = false; return nil }()
            case "until": gate.until = reader.date(value, "until") ?? { valid = false; return nil }()
            default: break
            }
        }
        if let from = gate.from, let until = gate.until, from >= until {
            reader.problem(fields.first { $0.key == "until" }?.value, "gate '\(name)': 'until' must be after 'from'")
            valid = false
        }
        return valid ? Gate(name: name, decider: .rules(gate)) : nil
    }
}
