/// An A/B experiment from `experiments.yaml`: each unit of its sources is assigned one variant, by weight or by a
/// flagd flag, and the variant's overrides replace the source's settings for that unit.
public struct Experiment: Sendable {
    /// How units are assigned their variant.
    public enum Assignment: Sendable {
        /// By the variants' weights, each unit's bucket hashed from the salt (else the experiment's name).
        case weights(salt: String?)
        /// By a string flag whose value names the variant (`flagd: { file, flag }`).
        case flag(FlagBinding)
    }

    public var name: String
    public var sources: [String]
    /// How a unit gets its variant: by weight, or by a flag.
    public var assignment: Assignment
    /// In file order.
    public var variants: [Variant]
}

/// One arm of an experiment.
public struct Variant: Sendable {
    public var name: String
    /// Its share is `weight / total weight` when the experiment assigns by weights; 0 when a flag assigns.
    public var weight: Int
    /// Settings this variant replaces, by key: `schedule`, `expiration`, `deepLink`, `maxDeleteRatio`,
    /// `options` (merged key by key) or `options.KEY`.
    var overrides: Overrides
    /// For each source whose options the variant overrides, the plugin made from the merged options, decoded and
    /// validated when the config loaded.
    var makers: [String: PluginMaker] = [:]
}
