/// A position in a YAML text, as editors show it: line and column from 1.
public struct YAMLMark: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// One node of a composed YAML document, with where it starts. Aliases are expanded: an alias is a copy of its
/// anchored node (arrays share storage, so a copy costs nothing until changed).
public struct YAMLNode: Sendable {
    /// How a scalar was written: plain scalars are resolved by the core schema, quoted and block ones are strings.
    public enum Style: Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    public enum Content: Sendable {
        case scalar(String, style: Style)
        case sequence([YAMLNode])
        case mapping([YAMLEntry])
    }

    public var content: Content
    public var mark: YAMLMark
    /// The explicit core-schema tag, if one was written (`str`, `int`, `float`, `bool`, `null`, `seq`, `map`).
    public var tag: String?

    public init(_ content: Content, mark: YAMLMark, tag: String? = nil) {
        self.content = content
        self.mark = mark
        self.tag = tag
    }

    /// The entries of a mapping, in document order; `nil` for other nodes.
    public var entries: [YAMLEntry]? {
        if case .mapping(let entries) = content { return entries }
        return nil
    }

    /// The elements of a sequence; `nil` for other nodes.
    public var elements: [YAMLNode]? {
        if case .sequence(let elements) = content { return elements }
        return nil
    }

    /// The value under `key` in a mapping whose keys are scalars.
    public subscript(key: String) -> YAMLNode? {
        entries?.first { $0.key.scalarText == key }?.value
    }

    /// A scalar's text as written (after quoting and escapes), whatever its type; `nil` for collections.
    public var scalarText: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }
}

/// A key and its value in a mapping.
public struct YAMLEntry: Sendable {
    public var key: YAMLNode
    public var value: YAMLNode

    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}

/// A YAML text that cannot be read, and where.
public struct YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    public var mark: YAMLMark
    public var message: String

    public init(_ message: String, at mark: YAMLMark) {
        self.message = message
        self.mark = mark
    }

    public var description: String { "\(mark): \(message)" }
}
