/// A source of searchable items: one kind of content the scheduler can index, named in the config by ``kind``.
///
/// A plugin decodes its own `options:` from the config (unknown keys are refused by the host against
/// ``options``), may check them further in ``validate(_:)``, and streams its items so that a source of a
/// million items never sits in memory.
public protocol SourcePlugin: Sendable {
    /// The plugin's own settings, decoded from the source's `options:` mapping.
    associatedtype Options: Decodable & Sendable

    /// The name the config uses in `plugin:`, such as `category-feed`.
    static var kind: String { get }
    /// One line saying what the plugin indexes.
    static var summary: String { get }
    /// Every option key the plugin accepts, with what it does; any other key is an error.
    static var options: [PluginOption] { get }

    /// Checks option values beyond their types; runs when the config is validated.
    static func validate(_ options: Options) throws(PluginOptionError)

    init(options: Options, context: PluginContext) throws

    /// The items of one unit. The stream ends when every item was produced, or fails; the consumer
    /// cancelling its task cancels the plugin's work.
    func items() -> AsyncThrowingStream<SearchableItem, any Error>
}

extension SourcePlugin {
    public static func validate(_ options: Options) throws(PluginOptionError) {}
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
