import YAML

/// Collects the problems found while reading the config files, so one run reports all of them.
final class ProblemLog {
    private(set) var problems: [ConfigProblem] = []
    /// What does not make the configuration invalid but deserves a look (a content folder not there yet).
    private(set) var warnings: [ConfigProblem] = []

    func warn(_ warning: ConfigProblem) {
        if !warnings.contains(warning) { warnings.append(warning) }
    }

    func add(_ file: String, _ node: YAMLNode?, _ message: String) {
        problems.append(ConfigProblem(file: file, line: node?.mark.line, column: node?.mark.column, message: message))
    }

    func add(_ file: String, at mark: YAMLMark, _ message: String) {
        problems.append(ConfigProblem(file: file, line: mark.line, column: mark.column, message: message))
    }

    func add(_ problem: ConfigProblem) {
        problems.append(problem)
    }

    var isEmpty: Bool { problems.isEmpty }
}
