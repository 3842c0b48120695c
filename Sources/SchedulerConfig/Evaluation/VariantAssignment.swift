public import Foundation

/// The variant an experiment gives a unit, and why.
public struct VariantAssignment: Sendable, Hashable, Codable {
    public var experiment: String
    public var variant: String
    /// The unit's bucket, 0–9999, when the experiment assigns by weights.
    public var bucket: Int?
    /// Such as "variant weekly (bucket 8110)" or "variant weekly: flag 'cadence' in flags.yaml served 'weekly' (STATIC)".
    public var reason: String
    /// When a flagd flag assigns: the flag, the variant served and why.
    public var flag: FlagVerdict?
}

/// A unit whose experiment's flag did not resolve: it is held (nothing runs, nothing is purged) until it does.
public struct HeldUnit: Error, Sendable, Hashable {
    /// `held: experiment 'x': …`, as reports show it.
    public var reason: String
}

extension Experiment {
    /// The variant of `unit` in `environment` at `date`; throws when the experiment's flag does not resolve.
    public func assign(unit: Unit, environment: String, at date: Date) throws(HeldUnit) -> VariantAssignment {
        switch assignment {
        case .weights(let salt): assignByWeight(unit: unit.key, salt: salt)
        case .flag(let binding): try assignByFlag(binding, unit: unit, environment: environment, at: date)
        }
    }

    /// The unit's variant bucket falls in the variant's share of 0–9999, variants laid out in file order, each
    /// taking `weight / total weight` of the buckets.
    func assignByWeight(unit: String, salt: String?) -> VariantAssignment {
        let bucket = Bucketing.variantBucket(experiment: salt ?? name, unit: unit)
        let total = variants.reduce(0) { $0 + $1.weight }
        var upper = 0
        var chosen = variants.last { $0.weight > 0 } ?? variants[0]
        for variant in variants where variant.weight > 0 {
            upper += variant.weight
            if bucket * total < upper * Bucketing.bucketCount {
                chosen = variant
                break
            }
        }
        return VariantAssignment(experiment: name, variant: chosen.name, bucket: bucket, reason: "variant \(chosen.name) (bucket \(bucket))")
    }

    /// The flag's string value names the variant; a `DISABLED` flag gives the first variant listed (the control).
    private func assignByFlag(_ binding: FlagBinding, unit: Unit, environment: String, at date: Date) throws(HeldUnit) -> VariantAssignment {
        let resolution = binding.resolve(for: unit, environment: environment, at: date)
        let verdict = binding.verdict(resolution)
        if let failure = binding.failure(of: resolution) { throw HeldUnit(reason: "held: experiment '\(name)': \(failure)") }
        if resolution.reason == .disabled {
            let first = variants[0].name
            return VariantAssignment(
                experiment: name, variant: first, reason: "variant \(first): flag '\(binding.flag)' in \(binding.file) is DISABLED, the first variant applies",
                flag: verdict
            )
        }
        guard case .string(let text)? = resolution.value, let chosen = variants.first(where: { $0.name.utf8.elementsEqual(text.utf8) })?.name,
            let served = resolution.variant
        else {
            throw HeldUnit(reason: "held: experiment '\(name)': flag '\(binding.flag)' in \(binding.file) served \(resolution.value.map { "'\($0.text)'" } ?? "no variant"), which names no variant of the experiment")
        }
        return VariantAssignment(
            experiment: name, variant: chosen, reason: "variant \(chosen): flag '\(binding.flag)' in \(binding.file) served '\(served)' (\(resolution.reason.rawValue))",
            flag: verdict
        )
    }
}
