/// What kind of run a plugin is asked for.
public enum SyncMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// Everything the source holds: what the run does not send is deleted afterwards (mark and sweep). A plugin that
    /// sends states may be handed one back later.
    case full
    /// What changed since the state the last successful run committed (``PluginContext/state``): items to upsert,
    /// identifiers to delete, and a new state. Nothing is swept.
    case incremental
    /// A full run that was interrupted, taken up again from the last state it committed (``PluginContext/state``):
    /// what the earlier attempt wrote counts as sent.
    case resume
}

/// The sync modes a plugin can run besides ``SyncMode/full``, which every plugin runs.
public struct SyncSupport: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The plugin sends what changed since a state it committed, and deletions.
    public static let incremental = SyncSupport(rawValue: 1)
    /// The plugin takes an interrupted full run up again from a state it committed.
    public static let resume = SyncSupport(rawValue: 2)
}
