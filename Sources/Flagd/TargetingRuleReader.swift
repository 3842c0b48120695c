import YAML

/// Reads targeting rules from a flag file's nodes: operators checked, `$ref`s resolved against `$evaluators`,
/// and a budget on what a rule may grow to once its references are expanded (an evaluator used twice in an
/// evaluator used twice… doubles at each level).
struct TargetingRuleReader {
    /// Most nodes one flag's rule may hold once its `$ref`s are expanded.
    static let maxNodes = 10_000
    /// Most nodes the rules of all a file's flags may hold once expanded: a small file of many flags that each
    /// expand a large evaluator would otherwise take minutes to load.
    static let maxFileNodes = 100_000
    /// Deepest nesting of one flag's rule once its `$ref`s are expanded.
    static let maxDepth = 64

    /// The `$evaluators` of the file, by name.
    let evaluators: [String: YAMLNode]
    /// Nodes of the flag being read, and of every flag read so far.
    private var nodes = 0
    private(set) var fileNodes = 0
    /// Whether the file's rules passed ``maxFileNodes``: the file is refused as a whole.
    var passedFileBudget: Bool { fileNodes > Self.maxFileNodes }
    /// The evaluators being expanded, outermost first: a name met again is a cycle.
    private var expanding: [String] = []

    init(evaluators: [String: YAMLNode]) {
        self.evaluators = evaluators
    }

    /// The targeting rule of one flag, at `pointer` in the file.
    mutating func targeting(_ node: YAMLNode, at pointer: JSONPointer) throws(FlagdDefinitionError) -> TargetingRule {
        nodes = 0
        return try rule(node, at: pointer)
    }

    /// The rule `node` holds, at `pointer` in the file.
    private mutating func rule(_ node: YAMLNode, at pointer: JSONPointer, depth: Int = 0) throws(FlagdDefinitionError) -> TargetingRule {
        nodes += 1
        fileNodes += 1
        guard nodes <= Self.maxNodes else {
            throw FlagdDefinitionError("the rule holds over \(Self.maxNodes) values once its $refs are expanded; simplify it", at: node.mark, pointer: pointer.description)
        }
        guard !passedFileBudget else {
            throw FlagdDefinitionError(
                "the file's rules hold over \(Self.maxFileNodes) values once their $refs are expanded; simplify them or split the file",
                at: node.mark, pointer: pointer.description
            )
        }
        guard depth <= Self.maxDepth else {
            throw FlagdDefinitionError("the rule nests deeper than \(Self.maxDepth) levels once its $refs are expanded; flatten it", at: node.mark, pointer: pointer.description)
        }
        switch node.content {
        case .scalar:
            return .literal(try FlagValueReader.scalar(node, at: pointer))
        case .sequence(let elements):
            var rules: [TargetingRule] = []
            for (index, element) in elements.enumerated() {
                rules.append(try rule(element, at: pointer.appending(index), depth: depth + 1))
            }
            return .list(rules)
        case .mapping(let entries):
            if entries.isEmpty { return .literal(.object([:])) }
            guard entries.count == 1, let entry = entries.first, let name = entry.key.scalarText else {
                throw FlagdDefinitionError(
                    "a rule object holds exactly one operator, this one holds \(entries.count) keys; split it with \"and\" or \"or\"",
                    at: node.mark, pointer: pointer.description
                )
            }
            if name == "$ref" { return try reference(entry.value, at: pointer.appending(name), depth: depth) }
            guard let operation = TargetingOperator(rawValue: name) else {
                throw FlagdDefinitionError(
                    "unknown operator \"\(YAMLErrorText.oneLine(name))\"; flagd's operators are \(TargetingOperator.names) and $ref",
                    at: entry.key.mark, pointer: pointer.appending(name).description
                )
            }
            let argumentsPointer = pointer.appending(name)
            var arguments: [TargetingRule] = []
            if case .sequence(let elements) = entry.value.content {
                for (index, element) in elements.enumerated() {
                    arguments.append(try rule(element, at: argumentsPointer.appending(index), depth: depth + 2))
                }
            } else {
                arguments = [try rule(entry.value, at: argumentsPointer, depth: depth + 1)]
            }
            return .operation(operation, arguments)
        }
    }

    /// The rule of the evaluator a `$ref` names.
    private mutating func reference(_ node: YAMLNode, at pointer: JSONPointer, depth: Int) throws(FlagdDefinitionError) -> TargetingRule {
        guard case .scalar(let name, _) = node.content, !node.isNull else {
            throw FlagdDefinitionError("$ref takes the name of an evaluator in $evaluators", at: node.mark, pointer: pointer.description)
        }
        guard let evaluator = evaluators[name] else {
            let known = evaluators.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw FlagdDefinitionError(
                "$ref names \"\(YAMLErrorText.oneLine(name))\", which $evaluators does not hold\(known.isEmpty ? " ($evaluators is empty)" : "; it holds \(known)")",
                at: node.mark, pointer: pointer.description
            )
        }
        guard !expanding.contains(name) else {
            throw FlagdDefinitionError(
                "$ref cycle: \((expanding + [name]).map { "\"\($0)\"" }.joined(separator: " → ")); an evaluator cannot use itself",
                at: node.mark, pointer: pointer.description
            )
        }
        expanding.append(name)
        defer { expanding.removeLast() }
        return try rule(evaluator, at: JSONPointer().appending("$evaluators").appending(name), depth: depth + 1)
    }
}
