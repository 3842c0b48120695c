import Foundation
import YAML

/// Reads one config file through the strict YAML composer (the system libyaml): bounded in size, nodes, depth
/// and anchors while it is composed, one document, core-schema tags only; every refusal has its line and column.
struct YAMLFile {
    /// What one config file may hold: room for a fleet (100,000 partitions of 100-byte names in one list), not for
    /// a file that expands without end. Config is trusted; the limits catch a mistake (a generated file gone wrong, an
    /// alias bomb) before it takes the machine's memory.
    static let limits = {
        var limits = YAMLLimits.standard
        limits.maxBytes = 32 << 20
        limits.maxNodes = 2_000_000
        limits.maxKeys = 1_000_000
        return limits
    }()

    let name: String
    let root: YAMLNode?
    /// Whether reading or parsing failed (the problem is logged); an empty file has no root but did not fail.
    var failed = false
    /// A digest of the bytes parsed, for the configuration's fingerprint.
    var digest = ""

    /// The parsed file, or `nil` with a problem logged. A missing file is `nil` without a problem.
    static func read(_ url: URL, name: String, problems: ProblemLog) -> YAMLFile? {
        let read = ConfigFileBytes.read(url, limit: limits.maxBytes)
        switch read {
        case .missing: return nil
        case .bytes(let bytes): return parse(bytes, name: name, problems: problems)
        case .tooLarge, .unreadable:
            problems.add(name, nil, read.refusal ?? "")
            return YAMLFile(name: name, root: nil, failed: true)
        }
    }

    /// Parses `bytes` as the file `name`.
    static func parse(_ bytes: [UInt8], name: String, problems: ProblemLog) -> YAMLFile {
        do {
            return YAMLFile(name: name, root: try YAMLComposer.compose(bytes, limits: limits), digest: Bucketing.digest(bytes))
        } catch {
            problems.add(ConfigProblem(file: name, line: error.mark.line, column: error.mark.column, message: error.message))
            return YAMLFile(name: name, root: nil, failed: true)
        }
    }
}
