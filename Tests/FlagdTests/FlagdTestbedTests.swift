import Flagd
import Foundation
import Testing

/// The evaluator scenarios of open-feature/flagd-testbed (`Fixtures/flagd-testbed`, see its README) run against
/// ``FlagdDefinitions``: the oracle is what every flagd provider must answer for the same flags and contexts.
@Suite struct FlagdTestbedTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/flagd-testbed")
    /// The feature files run; `metadata.feature` is not (flag metadata does not reach gates).
    static let features = [
        "disabled", "errors", "evaluation", "evaluator-refs", "fractional", "no-default-variant", "semver", "string",
        "targeting", "zero-values",
    ]

    @Test(arguments: features)
    func scenariosPass(feature: String) throws {
        let definitions = try FlagdDefinitions(parsing: String(contentsOf: Self.folder.appendingPathComponent("testkit-flags.json"), encoding: .utf8))
        let scenarios = try GherkinScenario.read(String(contentsOf: Self.folder.appendingPathComponent("\(feature).feature"), encoding: .utf8))
        #expect(!scenarios.isEmpty)
        for scenario in scenarios where !scenario.tags.contains("@fractional-v1") {
            try run(scenario, definitions)
        }
    }

    private func run(_ scenario: GherkinScenario, _ definitions: FlagdDefinitions) throws {
        var flagType = "", flagKey = "", fallback = ""
        var targetingKey: String?
        var attributes: [String: FlagValue] = [:]
        var resolved: (value: String, reason: String, errorCode: String?)?
        let context = Comment(rawValue: "\(scenario.name) \(scenario.example)")
        for step in scenario.steps {
            let quoted = step.quotedValues
            if step.text == "an evaluator" { continue }
            if let type = step.text.firstMatch(of: /^a (\w+)-flag with key/)?.1, quoted.count == 2 {
                (flagType, flagKey, fallback) = (String(type), quoted[0], quoted[1])
            } else if step.text.hasPrefix("a context containing a targeting key"), quoted.count == 1 {
                targetingKey = quoted[0]
            } else if step.text.hasPrefix("a context containing a nested property"), quoted.count == 3 {
                attributes[quoted[0]] = .object([quoted[1]: .string(quoted[2])])
            } else if step.text.hasPrefix("a context containing a key"), quoted.count == 3 {
                attributes[quoted[0]] = try Self.contextValue(quoted[2], type: quoted[1])
            } else if step.text == "the flag was evaluated with details" {
                resolved = Self.evaluate(definitions, flagKey, type: flagType, fallback: fallback, targetingKey: targetingKey, attributes: attributes)
            } else if step.text.hasPrefix("the resolved details value should be"), quoted.count == 1 {
                // Objects compare as JSON values, whatever their spacing and key order.
                let expected = flagType == "Object" ? try Self.json(quoted[0]) : quoted[0]
                #expect(resolved?.value == expected, context)
            } else if step.text.hasPrefix("the reason should be"), quoted.count == 1 {
                #expect(resolved?.reason == quoted[0], context)
            } else if step.text.hasPrefix("the error-code should be"), quoted.count == 1 {
                #expect(resolved?.errorCode == quoted[0], context)
            } else {
                Issue.record("a step this runner does not know: \(step.text)", sourceLocation: SourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column))
            }
        }
    }

    /// `text` parsed as JSON and printed again with sorted keys and no spaces.
    static func json(_ text: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
    }

    /// `value` printed as ``json(_:)`` prints.
    static func json(_ value: FlagValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): String(bool)
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .string(let string): String(decoding: try! JSONSerialization.data(withJSONObject: string, options: .fragmentsAllowed), as: UTF8.self)
        case .array(let values): "[" + values.map(json).joined(separator: ",") + "]"
        case .object(let object): "{" + object.keys.sorted().map { json(.string($0)) + ":" + json(object[$0]!) }.joined(separator: ",") + "}"
        }
    }

    /// A context value of a Gherkin type (`String`, `Integer`, `Float`, `Boolean`).
    static func contextValue(_ text: String, type: String) throws -> FlagValue {
        switch type {
        case "Integer", "Float": return try .number(#require(Double(text)))
        case "Boolean": return .bool(text == "true")
        default: return .string(text)
        }
    }

    /// The flag resolved as an OpenFeature provider resolves it for a typed request: the value as text, the reason
    /// and the error code; the fallback when the flag gives no value or one of another type (`TYPE_MISMATCH`).
    static func evaluate(
        _ definitions: FlagdDefinitions, _ key: String, type: String, fallback: String, targetingKey: String?, attributes: [String: FlagValue]
    ) -> (value: String, reason: String, errorCode: String?) {
        let resolution = definitions.resolve(key, targetingKey: targetingKey, attributes: attributes)
        guard let value = resolution.value else { return (fallback, resolution.reason.rawValue, resolution.errorCode?.rawValue) }
        let text: String? = switch (type, value) {
        case ("String", .string(let string)): string
        case ("Boolean", .bool(let bool)): String(bool)
        case ("Integer", .number(let number)) where number == number.rounded(): String(Int(number))
        case ("Float", .number(let number)): String(number)
        case ("Object", .object): Self.json(value)
        default: nil
        }
        guard let text else { return (fallback, FlagResolution.Reason.error.rawValue, "TYPE_MISMATCH") }
        return (text, resolution.reason.rawValue, resolution.errorCode?.rawValue)
    }
}

/// One scenario of a Gherkin feature file, an outline expanded once per row of each of its `Examples` tables:
/// its tags (the scenario's and the table's), its steps (Background first) with `<column>` placeholders filled.
struct GherkinScenario {
    struct Step {
        var text: String
        /// The `"…"` values of the step, in order.
        var quotedValues: [String] {
            text.matches(of: /"((?:[^"\\]|\\.)*)"/).map { String($0.1).replacingOccurrences(of: "\\\"", with: "\"") }
        }
    }

    var name: String
    var example: String
    var tags: Set<String>
    var steps: [Step]

    static func read(_ text: String) throws -> [GherkinScenario] {
        var scenarios: [GherkinScenario] = []
        var background: [Step] = [], steps: [Step] = []
        var name = "", inBackground = false, pendingTags: Set<String> = [], scenarioTags: Set<String> = [], tableTags: Set<String> = []
        var header: [String]?, isOutline = false
        func finishPlainScenario() {
            if !name.isEmpty, !isOutline { scenarios.append(GherkinScenario(name: name, example: "", tags: scenarioTags, steps: background + steps)) }
        }
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("@") {
                pendingTags.formUnion(line.split(separator: " ").map(String.init))
            } else if line.hasPrefix("Feature:") {
                pendingTags = []
            } else if line.hasPrefix("Background:") {
                inBackground = true
            } else if line.hasPrefix("Scenario") {
                finishPlainScenario()
                inBackground = false
                isOutline = line.hasPrefix("Scenario Outline:")
                name = String(line.drop { $0 != ":" }.dropFirst()).trimmingCharacters(in: .whitespaces)
                scenarioTags = pendingTags
                pendingTags = []
                steps = []
                header = nil
            } else if line.hasPrefix("Examples") {
                tableTags = pendingTags
                pendingTags = []
                header = nil
            } else if line.hasPrefix("|") {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map { $0.trimmingCharacters(in: .whitespaces) }
                guard let columns = header else { header = cells; continue }
                let filled = steps.map { step in
                    Step(text: zip(columns, cells).reduce(step.text) { $0.replacingOccurrences(of: "<\($1.0)>", with: $1.1) })
                }
                scenarios.append(GherkinScenario(name: name, example: cells.joined(separator: " | "), tags: scenarioTags.union(tableTags), steps: background + filled))
            } else if let keyword = ["Given ", "And ", "When ", "Then ", "But "].first(where: line.hasPrefix) {
                let step = Step(text: String(line.dropFirst(keyword.count)))
                if inBackground { background.append(step) } else { steps.append(step) }
            }
        }
        finishPlainScenario()
        return scenarios
    }
}
