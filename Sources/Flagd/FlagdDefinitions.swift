import YAML

/// A flagd flag definition file (https://flagd.dev/reference/flag-definitions/), JSON or YAML, read strictly:
/// `flags`, `$evaluators`, `metadata` and `$schema` at the top, each flag's `state`, `variants`, `defaultVariant`,
/// `targeting` and `metadata`, a key written twice refused, every problem with its line, column and JSON pointer.
///
/// A problem in one flag leaves the others usable (flagd serves them, and answers `PARSE_ERROR` for that flag);
/// ``problems`` lists them all, so a caller that needs the whole file sound refuses it.
public struct FlagdDefinitions: Sendable {
    /// Largest file read, in bytes.
    public static let maxBytes = 1 << 20

    /// The flags by key: checked, or the first problem found in it.
    public var flags: [String: Result<FlagdFlag, FlagdDefinitionError>]
    public var metadata: [String: FlagValue]

    /// Every problem of the file, in the order they appear in it.
    public var problems: [FlagdDefinitionError] {
        flags.values.compactMap { if case .failure(let error) = $0 { error } else { nil } }
            .sorted { ($0.mark.line, $0.mark.column) < ($1.mark.line, $1.mark.column) }
    }

    /// The definitions in `text`; throws when the file as a whole cannot be read (its syntax, its shape).
    public init(parsing text: String) throws(FlagdDefinitionError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// The definitions in a file's bytes, which must be UTF-8 (a byte that is not is refused with its place).
    public init(parsing bytes: [UInt8]) throws(FlagdDefinitionError) {
        var limits = YAMLLimits.standard
        limits.maxBytes = Self.maxBytes
        let document: YAMLNode?
        do {
            document = try YAMLComposer.compose(JSONTabs.untabbed(bytes), limits: limits)
        } catch {
            // The composer speaks of YAML; the file may well be JSON.
            let message = error.message.hasPrefix("YAML syntax: ")
                ? "syntax (a flag file is JSON or YAML): " + error.message.dropFirst("YAML syntax: ".count) : error.message
            throw FlagdDefinitionError(message, at: error.mark, pointer: "")
        }
        guard let document, let entries = document.entries else {
            throw FlagdDefinitionError("a flag definition file is an object with \"flags\"", at: document?.mark ?? YAMLMark(line: 1, column: 1), pointer: "")
        }
        let root = JSONPointer()
        var flagsNode: YAMLNode?, evaluatorsNode: YAMLNode?
        metadata = [:]
        for entry in entries {
            let key = try FlagValueReader.key(entry.key, at: root)
            switch key {
            case "flags": flagsNode = entry.value
            case "$evaluators": evaluatorsNode = entry.value
            case "metadata": metadata = try Self.object(entry.value, at: root.appending(key))
            case "$schema": _ = try Self.string(entry.value, at: root.appending(key))
            default:
                throw FlagdDefinitionError(
                    "unknown key \"\(YAMLErrorText.oneLine(key))\"; a flag definition file holds flags, $evaluators, metadata and $schema",
                    at: entry.key.mark, pointer: root.appending(key).description
                )
            }
        }
        guard let flagsNode else { throw FlagdDefinitionError("the file has no \"flags\"", at: document.mark, pointer: "") }
        guard let flagEntries = flagsNode.entries else {
            throw FlagdDefinitionError("\"flags\" is an object of flags by key", at: flagsNode.mark, pointer: "/flags")
        }
        var evaluators: [String: YAMLNode] = [:]
        if let evaluatorsNode {
            guard let evaluatorEntries = evaluatorsNode.entries else {
                throw FlagdDefinitionError("\"$evaluators\" is an object of rules by name", at: evaluatorsNode.mark, pointer: "/$evaluators")
            }
            for entry in evaluatorEntries { evaluators[try FlagValueReader.key(entry.key, at: root.appending("$evaluators"))] = entry.value }
        }
        flags = [:]
        var rules = TargetingRuleReader(evaluators: evaluators)
        for entry in flagEntries {
            let key = try FlagValueReader.key(entry.key, at: root.appending("flags"))
            let flag = Result { () throws(FlagdDefinitionError) in
                try Self.flag(key, entry.value, at: root.appending("flags").appending(key), rules: &rules)
            }
            if rules.passedFileBudget, case .failure(let error) = flag { throw error }
            flags[key] = flag
        }
    }

    private static func flag(_ key: String, _ node: YAMLNode, at pointer: JSONPointer, rules: inout TargetingRuleReader) throws(FlagdDefinitionError) -> FlagdFlag {
        guard let entries = node.entries else {
            throw FlagdDefinitionError("a flag is an object with state, variants and defaultVariant", at: node.mark, pointer: pointer.description)
        }
        var state: FlagdFlag.State?, variants: [String: FlagValue]?, defaultVariant: String??, targeting: TargetingRule?
        var metadata: [String: FlagValue] = [:]
        for entry in entries {
            let field = try FlagValueReader.key(entry.key, at: pointer)
            let fieldPointer = pointer.appending(field)
            switch field {
            case "state":
                let text = try string(entry.value, at: fieldPointer)
                guard let value = FlagdFlag.State(rawValue: text) else {
                    throw FlagdDefinitionError("state is ENABLED or DISABLED, not \"\(YAMLErrorText.oneLine(text))\"", at: entry.value.mark, pointer: fieldPointer.description)
                }
                state = value
            case "variants":
                let object = try Self.object(entry.value, at: fieldPointer)
                guard !object.isEmpty else {
                    throw FlagdDefinitionError("a flag needs at least one variant", at: entry.value.mark, pointer: fieldPointer.description)
                }
                variants = object
            case "defaultVariant":
                defaultVariant = entry.value.isNull ? .some(nil) : try string(entry.value, at: fieldPointer)
            case "targeting":
                if let targetingEntries = entry.value.entries, targetingEntries.isEmpty { break }
                targeting = try rules.targeting(entry.value, at: fieldPointer)
            case "metadata":
                metadata = try Self.object(entry.value, at: fieldPointer)
            default:
                throw FlagdDefinitionError(
                    "unknown key \"\(YAMLErrorText.oneLine(field))\"; a flag holds state, variants, defaultVariant, targeting and metadata",
                    at: entry.key.mark, pointer: fieldPointer.description
                )
            }
        }
        guard let state else { throw FlagdDefinitionError("the flag has no state (ENABLED or DISABLED)", at: node.mark, pointer: pointer.description) }
        guard let variants else { throw FlagdDefinitionError("the flag has no variants", at: node.mark, pointer: pointer.description) }
        if case let name?? = defaultVariant, !variants.keys.contains(where: { $0.utf8.elementsEqual(name.utf8) }) {
            throw FlagdDefinitionError(
                "defaultVariant \"\(YAMLErrorText.oneLine(name))\" is not one of the variants (\(variants.keys.sorted().joined(separator: ", ")))",
                at: node["defaultVariant"]?.mark ?? node.mark, pointer: pointer.appending("defaultVariant").description
            )
        }
        return FlagdFlag(key: key, state: state, variants: variants, defaultVariant: defaultVariant ?? nil, targeting: targeting, metadata: metadata)
    }

    private static func string(_ node: YAMLNode, at pointer: JSONPointer) throws(FlagdDefinitionError) -> String {
        guard case .string(let text) = try FlagValueReader.scalar(node, at: pointer) else {
            throw FlagdDefinitionError("expected text", at: node.mark, pointer: pointer.description)
        }
        return text
    }

    private static func object(_ node: YAMLNode, at pointer: JSONPointer) throws(FlagdDefinitionError) -> [String: FlagValue] {
        guard node.entries != nil, case .object(let object) = try FlagValueReader.value(node, at: pointer) else {
            throw FlagdDefinitionError("expected an object", at: node.mark, pointer: pointer.description)
        }
        return object
    }
}
