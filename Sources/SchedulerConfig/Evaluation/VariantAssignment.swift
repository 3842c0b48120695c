/// The variant an experiment gives a unit, and why.
public struct VariantAssignment: Sendable, Hashable, Codable {
    public var experiment: String
    public var variant: String
    public var bucket: Int
    /// Such as "variant weekly (bucket 8110)".
    public var reason: String
}

extension Experiment {
    /// The variant of `unit`: its variant bucket falls in the variant's share of 0–9999, variants laid out in
    /// file order, each taking `weight / total weight` of the buckets.
    public func assign(unit: String) -> VariantAssignment {
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
}
