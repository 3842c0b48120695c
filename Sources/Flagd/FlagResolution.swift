/// What evaluating a flag for a context gave, in OpenFeature's terms: the variant and its value, why, and what went
/// wrong if anything did.
public struct FlagResolution: Sendable, Hashable {
    /// Why the flag resolved as it did (OpenFeature's resolution reasons).
    public enum Reason: String, Sendable, Hashable {
        /// The flag has no targeting: its default variant.
        case `static` = "STATIC"
        /// The targeting gave nothing (or the flag has no default variant): the default.
        case `default` = "DEFAULT"
        /// The targeting picked a variant.
        case targetingMatch = "TARGETING_MATCH"
        /// The flag's state is `DISABLED`.
        case disabled = "DISABLED"
        case error = "ERROR"
    }

    /// What went wrong (OpenFeature's error codes).
    public enum ErrorCode: String, Sendable, Hashable {
        case flagNotFound = "FLAG_NOT_FOUND"
        case parseError = "PARSE_ERROR"
        case general = "GENERAL"
    }

    /// The variant served; `nil` when the caller's fallback applies (disabled, no default variant, an error).
    public var variant: String?
    /// The variant's value; `nil` exactly when ``variant`` is.
    public var value: FlagValue?
    public var reason: Reason
    public var errorCode: ErrorCode?
    /// What went wrong, for a person: the error, or why an operator gave `null` so the default was served.
    public var problems: [String]

    public init(variant: String?, value: FlagValue?, reason: Reason, errorCode: ErrorCode? = nil, problems: [String] = []) {
        self.variant = variant
        self.value = value
        self.reason = reason
        self.errorCode = errorCode
        self.problems = problems
    }
}

extension FlagdDefinitions {
    /// Evaluates the flag `key` for a context: `attributes` (any values), and the `targetingKey` that identifies
    /// what is evaluated (`fractional` buckets by it). `var` reads them, and `$flagd.flagKey` / `$flagd.timestamp`.
    public func resolve(_ key: String, targetingKey: String?, attributes: [String: FlagValue] = [:], timestamp: Double = 0) -> FlagResolution {
        guard let entry = flags[key] else {
            return FlagResolution(variant: nil, value: nil, reason: .error, errorCode: .flagNotFound, problems: ["no flag \"\(key)\" in the file"])
        }
        let flag: FlagdFlag
        switch entry {
        case .success(let checked): flag = checked
        case .failure(let error):
            return FlagResolution(variant: nil, value: nil, reason: .error, errorCode: .parseError, problems: [error.description])
        }
        guard flag.state == .enabled else { return FlagResolution(variant: nil, value: nil, reason: .disabled) }
        func defaultResolution(_ reason: FlagResolution.Reason, problems: [String] = []) -> FlagResolution {
            guard let name = flag.defaultVariant else { return FlagResolution(variant: nil, value: nil, reason: .default, problems: problems) }
            return FlagResolution(variant: name, value: flag.value(ofVariant: name), reason: reason, problems: problems)
        }
        guard let targeting = flag.targeting else { return defaultResolution(.static) }

        var data = attributes
        if let targetingKey { data["targetingKey"] = .string(targetingKey) }
        data["$flagd"] = .object(["flagKey": .string(key), "timestamp": .number(timestamp)])
        var evaluation = TargetingEvaluation(data: .object(data), flagKey: key)
        let picked = evaluation.evaluate(targeting)
        let name: String
        switch picked {
        case .null: return defaultResolution(.default, problems: evaluation.failures)
        case .string(let text): name = text
        case .bool, .number: name = picked.text
        case .array, .object:
            return FlagResolution(
                variant: nil, value: nil, reason: .error, errorCode: .general,
                problems: evaluation.failures + ["the targeting gave \(picked.typeName), not a variant name"]
            )
        }
        guard let value = flag.value(ofVariant: name) else {
            return FlagResolution(
                variant: nil, value: nil, reason: .error, errorCode: .general,
                problems: evaluation.failures + ["the targeting picked \"\(name)\", which is not a variant of \"\(key)\""]
            )
        }
        return FlagResolution(variant: name, value: value, reason: .targetingMatch, problems: evaluation.failures)
    }
}
