import Foundation
import YAML

/// Reads one config file through the strict YAML composer (the system libyaml): bounded in size, nodes, depth
/// and anchors while it is composed, one document, core-schema tags only; every refusal has its line and column.
struct YAMLFile {
    /// What one config file may hold.
    static let limits = YAMLLimits.standard

    let name: String
    let root: YAMLNode?
    /// Whether reading or parsing failed (the problem is logged); an empty file has no root but did not fail.
    var failed = false
    /// A digest of the bytes parsed, for the configuration's fingerprint.
    var digest = ""

    /// The parsed file, or `nil` with a problem logged. A missing file is `nil` without a problem.
    static func read(_ url: URL, name: String, problems: ProblemLog) -> YAMLFile? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        if let size = (attributes?[.size] as? NSNumber)?.intValue, size > limits.maxBytes {
            problems.add(name, nil, "file of \(size) bytes is over the limit of \(limits.maxBytes) bytes")
            return YAMLFile(name: name, root: nil, failed: true)
        }
        guard let data = try? Data(contentsOf: url) else {
            problems.add(name, nil, "cannot read the file")
            return YAMLFile(name: name, root: nil, failed: true)
        }
        return parse([UInt8](data), name: name, problems: problems)
    }

    /// Parses `bytes` as the file `name`.
    static func parse(_ bytes: [UInt8], name: String, problems: ProblemLog) -> YAMLFile {
        do {
            return YAMLFile(name: name, root: try YAMLComposer.compose(bytes, limits: limits), digest: Bucketing.digest(String(decoding: bytes, as: UTF8.self)))
        } catch {
            problems.add(ConfigProblem(file: name, line: error.mark.line, column: error.mark.column, message: error.message))
            return YAMLFile(name: name, root: nil, failed: true)
        }
    }
}
