/// One thing wrong with the configuration, where it is: `gates.yaml:3:5: unknown key 'enabeld'`.
public struct ConfigProblem: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file's name within the config folder, such as `gates.yaml`.
    public var file: String
    /// 1-based line, when the problem has a place in the file.
    public var line: Int?
    /// 1-based column, when the problem has a place in the file.
    public var column: Int?
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(message)"
    }
}

/// A configuration that did not load: every problem found, in file order. It never becomes the active config.
public struct InvalidConfiguration: Error, Sendable, CustomStringConvertible {
    public var problems: [ConfigProblem]

    public init(problems: [ConfigProblem]) {
        self.problems = problems
    }

    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
