import Foundation
import Yams

/// Reads one YAML file safely: bounded in size, parsed to a node tree (which shares aliased nodes), then
/// walked with a budget so a document built to explode through aliases is refused before anything expands it.
struct YAMLFile {
    /// Largest config file accepted.
    static let maxBytes = 1024 * 1024
    /// Most nodes a document may hold once aliases are expanded.
    static let maxExpandedNodes = 100_000
    /// Deepest nesting accepted.
    static let maxDepth = 64

    let name: String
    let root: Node?
    /// Whether reading or parsing failed (the problem is logged); an empty file has no root but did not fail.
    var failed = false

    /// The parsed file, or `nil` with a problem logged. A missing file is `nil` without a problem.
    static func read(_ url: URL, name: String, problems: ProblemLog) -> YAMLFile? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        if let size = (attributes?[.size] as? NSNumber)?.intValue, size > maxBytes {
            problems.add(name, nil, "file of \(size) bytes is over the limit of \(maxBytes) bytes")
            return YAMLFile(name: name, root: nil, failed: true)
        }
        guard let data = try? Data(contentsOf: url), data.count <= maxBytes else {
            problems.add(name, nil, "cannot read the file")
            return YAMLFile(name: name, root: nil, failed: true)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            problems.add(name, nil, "the file is not UTF-8 text")
            return YAMLFile(name: name, root: nil, failed: true)
        }
        return parse(text, name: name, problems: problems)
    }

    /// Parses `text` as the file `name`.
    static func parse(_ text: String, name: String, problems: ProblemLog) -> YAMLFile {
        if let problem = AliasKeyCheck.problem(in: text, file: name) {
            problems.add(problem)
            return YAMLFile(name: name, root: nil, failed: true)
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            problems.add(Self.problem(from: error, file: name))
            return YAMLFile(name: name, root: nil, failed: true)
        } catch {
            problems.add(name, nil, "cannot parse: \(error)")
            return YAMLFile(name: name, root: nil, failed: true)
        }
        if let root {
            var budget = maxExpandedNodes
            if !withinBudget(root, budget: &budget, depth: 0) {
                problems.add(name, nil, "the document expands to more than \(maxExpandedNodes) nodes or \(maxDepth) levels "
                    + "(aliases repeated too often?); write it out plainly")
                return YAMLFile(name: name, root: nil, failed: true)
            }
            if let tagged = firstUnsupportedTag(root) {
                problems.add(name, tagged, "the tag '\(tagged.tag.description.prefix(80))' is not supported: config values take no custom "
                    + "tags; remove it")
                return YAMLFile(name: name, root: nil, failed: true)
            }
        }
        return YAMLFile(name: name, root: root)
    }

    /// Tags of the YAML core schema, and those the parser gives untagged values (`2026-01-01` reads as a timestamp).
    static let allowedTags = Set(["str", "int", "float", "bool", "null", "seq", "map", "timestamp", "merge", "value"]
        .map { "tag:yaml.org,2002:\($0)" })

    /// The first node, in document order, whose tag is outside `allowedTags` (`!custom`, `!!python/object`).
    /// Called once the budget walk has bounded the tree.
    private static func firstUnsupportedTag(_ node: Node) -> Node? {
        if case .alias = node { return nil }
        if !allowedTags.contains(node.tag.description) { return node }
        switch node {
        case .scalar, .alias:
            return nil
        case .sequence(let sequence):
            return sequence.lazy.compactMap(firstUnsupportedTag).first
        case .mapping(let mapping):
            return mapping.lazy.compactMap { firstUnsupportedTag($0.key) ?? firstUnsupportedTag($0.value) }.first
        }
    }

    private static func withinBudget(_ node: Node, budget: inout Int, depth: Int) -> Bool {
        budget -= 1
        guard budget >= 0, depth <= maxDepth else { return false }
        switch node {
        case .scalar, .alias:
            return true
        case .sequence(let sequence):
            return sequence.allSatisfy { withinBudget($0, budget: &budget, depth: depth + 1) }
        case .mapping(let mapping):
            return mapping.allSatisfy {
                withinBudget($0.key, budget: &budget, depth: depth + 1) && withinBudget($0.value, budget: &budget, depth: depth + 1)
            }
        }
    }

    private static func problem(from error: YamlError, file: String) -> ConfigProblem {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _):
            return ConfigProblem(file: file, line: mark.line, column: mark.column, message: "YAML syntax: \(problem)")
        case .composer(_, let problem, let mark, _):
            return ConfigProblem(file: file, line: mark.line, column: mark.column, message: "YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return ConfigProblem(file: file, line: context.mark.line, column: context.mark.column, message: "duplicate key \(keys)")
        default:
            return ConfigProblem(file: file, message: "YAML: \(error)")
        }
    }
}
