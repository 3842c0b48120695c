/// An A/B experiment from `experiments.yaml`: each unit of its sources is assigned one variant by weight,
/// and the variant's overrides replace the source's settings for that unit.
public struct Experiment: Sendable {
    public var name: String
    public var sources: [String]
    /// Hashed instead of the name when set: changing it reshuffles the units.
    public var salt: String?
    /// In file order.
    public var variants: [Variant]
}

/// One arm of an experiment.
public struct Variant: Sendable {
    public var name: String
    public var weight: Int
    /// Settings this variant replaces, by key: `schedule`, `expiration`, `deepLink`, `maxDeleteRatio`,
    /// `options` (merged key by key) or `options.KEY`.
    var overrides: Overrides
    /// For each source whose options the variant overrides, the plugin made from the merged options, decoded and
    /// validated when the config loaded.
    var makers: [String: PluginMaker] = [:]
}
