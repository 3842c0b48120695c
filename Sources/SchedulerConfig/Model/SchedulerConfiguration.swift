/// A configuration that loaded and validated: the three files together. Only such a value is ever active.
public struct SchedulerConfiguration: Sendable {
    /// The config folder it was read from.
    public var directory: String
    public var scheduler: SchedulerSettings
    /// By name.
    public var gates: [String: Gate]
    /// In file order.
    public var experiments: [Experiment]
    /// A digest of the files it was read from: replicas whose fingerprints differ run different configs.
    public var fingerprint: String = ""
    /// What loading noticed without refusing the configuration (a content folder not there yet), located.
    public var warnings: [ConfigProblem] = []

    /// Every unit of every source, in config order.
    public var units: [Unit] { scheduler.sources.flatMap(\.units) }

    /// The experiment a source takes part in, if any.
    public func experiment(forSource source: String) -> Experiment? {
        experiments.first { $0.sources.contains(source) }
    }
}
