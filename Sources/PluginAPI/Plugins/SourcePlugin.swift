import Synchronization
/// A source of searchable items: one kind of content the scheduler can index, named in the config by ``kind``.
///
/// A plugin decodes its own `options:` from the config (unknown keys are refused by the host against
/// ``options``), may check them further in ``validate(_:)``, and sends its items one at a time into the host's
/// sink, so that a source of a million items never sits in memory. It works in the caller's task (structured
/// concurrency: whatever it starts, it owns and ends before returning), so cancelling that task stops it.
public protocol SourcePlugin: Sendable {
    /// The plugin's own settings, decoded from the source's `options:` mapping.
    associatedtype Options: Decodable & Sendable

    /// The name the config uses in `plugin:`, such as `category-feed`.
    static var kind: String { get }
    /// One line saying what the plugin indexes.
    static var summary: String { get }
    /// Every option key the plugin accepts, with what it does; any other key is an error.
    static var options: [PluginOption] { get }
    /// The runs the plugin can do besides full ones (none unless it says so): a source may then have an `incremental`
    /// schedule, and an interrupted full run is resumed.
    static var sync: SyncSupport { get }

    /// Checks option values beyond their types, once, when the config loads: every run of the config uses the options
    /// as then decoded and checked.
    static func validate(_ options: Options) throws(PluginOptionError)

    /// Checks what the options name on this machine for every unit of the source (a folder that must exist, a
    /// path a run would refuse), so `scheduler validate` finds what a run would; runs when the config is validated.
    static func validate(_ options: Options, in context: PluginValidationContext) throws(PluginOptionError)

    init(options: Options, context: PluginContext) throws

    /// Produces the items of one unit into `sink`. Returning means every item was sent; throwing fails the run
    /// (nothing is deleted); the caller's task being cancelled must end it promptly with `CancellationError`.
    /// Handed a state it cannot use (``PluginContext/state``), a plugin throws ``SyncStateUnusable``.
    func produce(into sink: inout some ItemSink) async throws

    /// Tests the plugin's own configuration and connection without producing anything, when it can (the `command`
    /// plugin asks its program); `nil` when it has no such test. `scheduler plugins check` shows it before a dry read.
    func check() async throws -> PluginCheck?
}

extension SourcePlugin {
    public static var sync: SyncSupport { [] }

    public func check() async throws -> PluginCheck? { nil }

    public static func validate(_ options: Options) throws(PluginOptionError) {}

    public static func validate(_ options: Options, in context: PluginValidationContext) throws(PluginOptionError) {
        try validate(options)
    }
}

/// What a source's options are checked against when the config is validated: the folder relative paths are
/// resolved against, and the partitions its units cover.
public struct PluginValidationContext: Sendable {
    /// The configuration folder.
    public var baseDirectory: String
    /// The source's partitions; empty for an unpartitioned source (one unit, no partition).
    public var partitions: [String]

    /// What the options name that is not there yet but may come (a content folder a volume or a sidecar has not
    /// made yet): not an invalid configuration, since only its units can fail, but worth a warning in `validate`.
    public let warnings = PluginValidationWarnings()

    public init(baseDirectory: String, partitions: [String]) {
        self.baseDirectory = baseDirectory
        self.partitions = partitions
    }

    /// The partition of each unit: `nil` alone for an unpartitioned source.
    public var units: [String?] { partitions.isEmpty ? [nil] : partitions }

    /// `path` resolved against ``baseDirectory`` when it is relative.
    public func resolve(path: String) -> String {
        ConfigPathRule.absolute(path, relativeTo: baseDirectory)
    }
}

/// The warnings a plugin's validation gave (``PluginValidationContext/warnings``).
public final class PluginValidationWarnings: Sendable {
    private let list = Mutex<[PluginOptionError]>([])

    public init() {}

    /// Warns about `option`: the configuration stays valid.
    public func warn(_ warning: PluginOptionError) {
        list.withLock { $0.append(warning) }
    }

    /// Every warning given, in order.
    public var all: [PluginOptionError] { list.withLock { $0 } }
}

/// One option a plugin accepts, as `scheduler plugins` lists it.
public struct PluginOption: Sendable, Hashable, Codable {
    public var name: String
    public var summary: String
    public var isRequired: Bool

    public init(_ name: String, _ summary: String, required: Bool = false) {
        self.name = name
        self.summary = summary
        self.isRequired = required
    }
}

/// An option value a plugin refuses, naming the option.
public struct PluginOptionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var option: String
    public var reason: String
    public init(option: String, reason: String) {
        self.option = option
        self.reason = reason
    }
    public var description: String { "option '\(option)': \(reason)" }
}
