public import Flagd
public import Foundation
import YAML

/// A flag of a flagd definition file that decides a gate (a boolean flag) or an experiment's variant (a string
/// flag whose values name the variants), as `flagd: { file, flag }` says in `gates.yaml` or `experiments.yaml`.
public struct FlagBinding: Sendable {
    /// The flag file as written, relative to the config folder.
    public var file: String
    /// The flag's key in the file.
    public var flag: String
    /// The file's definitions, read and checked when the configuration loaded.
    public var definitions: FlagdDefinitions
    /// Where the config names the flag (`gates.yaml` or `experiments.yaml`, and the `flagd:` node).
    var referencedFrom: (file: String, mark: YAMLMark)

    /// The flag evaluated for `unit`: the targeting key is the unit key (`source/partition`), and rules may read
    /// `source`, `partition` (absent for a source without partitions), `domain`, `environment`,
    /// `$flagd.flagKey` and `$flagd.timestamp` (Unix seconds of `date`).
    public func resolve(for unit: Unit, environment: String, at date: Date) -> FlagResolution {
        var attributes: [String: FlagValue] = [
            "source": .string(unit.source), "domain": .string(unit.domain), "environment": .string(environment),
        ]
        if let partition = unit.partition { attributes["partition"] = .string(partition) }
        return definitions.resolve(flag, targetingKey: unit.key, attributes: attributes, timestamp: date.timeIntervalSince1970.rounded(.down))
    }

    /// How the flag resolved, as reports show it.
    func verdict(_ resolution: FlagResolution) -> FlagVerdict {
        FlagVerdict(file: file, flag: flag, variant: resolution.variant, reason: resolution.reason.rawValue)
    }

    /// Why `resolution` cannot decide anything (an error, or a targeting rule that failed), or `nil` when it can.
    func failure(of resolution: FlagResolution) -> String? {
        guard resolution.errorCode != nil || !resolution.problems.isEmpty else { return nil }
        let problems = resolution.problems.isEmpty ? [resolution.errorCode?.rawValue ?? "error"] : resolution.problems
        return "flag '\(flag)' in \(file) did not resolve: \(problems.joined(separator: "; "))"
    }
}

/// How a flagd flag resolved for one unit: the flag, the variant served and flagd's reason for it (`STATIC`,
/// `DEFAULT`, `TARGETING_MATCH`, `DISABLED` or `ERROR`).
public struct FlagVerdict: Sendable, Hashable, Codable {
    /// The flag file, as the config names it.
    public var file: String
    /// The flag's key in it.
    public var flag: String
    /// `nil` when no variant was served (the flag is disabled, or it failed).
    public var variant: String?
    /// flagd's reason code for the variant served.
    public var reason: String

    public init(file: String, flag: String, variant: String?, reason: String) {
        self.file = file
        self.flag = flag
        self.variant = variant
        self.reason = reason
    }
}
