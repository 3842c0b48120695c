import YAML

/// Reads values (variants, metadata, literals in rules) from a flag file's nodes by the YAML 1.2 core schema,
/// which JSON's values are a part of: `true`, `3.5` and `null` written plain are what JSON makes them, quoted
/// text is a string.
enum FlagValueReader {
    /// The value `node` holds.
    static func value(_ node: YAMLNode, at pointer: JSONPointer) throws(FlagdDefinitionError) -> FlagValue {
        switch node.content {
        case .scalar:
            return try scalar(node, at: pointer)
        case .sequence(let elements):
            var values: [FlagValue] = []
            for (index, element) in elements.enumerated() { values.append(try value(element, at: pointer.appending(index))) }
            return .array(values)
        case .mapping(let entries):
            var object: [String: FlagValue] = [:]
            for entry in entries {
                let key = try FlagValueReader.key(entry.key, at: pointer)
                object[key] = try value(entry.value, at: pointer.appending(key))
            }
            return .object(object)
        }
    }

    /// A scalar's value: null, a boolean or a number when written plain as one, else its text.
    static func scalar(_ node: YAMLNode, at pointer: JSONPointer) throws(FlagdDefinitionError) -> FlagValue {
        guard case .scalar(let text, let style) = node.content else { return try value(node, at: pointer) }
        if node.isNull { return .null }
        guard style == .plain || node.tag != nil else { return .string(text) }
        if node.tag == "str" { return .string(text) }
        if let bool = try? node.bool() { return .bool(bool) }
        if let number = try? node.number(in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) { return .number(number) }
        if let tag = node.tag {
            throw FlagdDefinitionError("'\(YAMLErrorText.oneLine(text))' is not a valid !!\(tag)", at: node.mark, pointer: pointer.description)
        }
        return .string(text)
    }

    /// A mapping key's text (keys are text in JSON).
    static func key(_ node: YAMLNode, at pointer: JSONPointer) throws(FlagdDefinitionError) -> String {
        guard case .scalar(let text, _) = node.content, !node.isNull else {
            throw FlagdDefinitionError("a key must be text", at: node.mark, pointer: pointer.description)
        }
        return text
    }
}
