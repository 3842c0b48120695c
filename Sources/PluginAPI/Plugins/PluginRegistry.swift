/// The plugins the host knows, by the kind name the config uses in `plugin:`.
public struct PluginRegistry: Sendable {
    private var plugins: [String: any SourcePlugin.Type] = [:]

    public init(_ plugins: [any SourcePlugin.Type] = []) {
        for plugin in plugins { register(plugin) }
    }

    /// Adds `plugin`; a later registration of the same kind replaces the earlier one.
    public mutating func register(_ plugin: any SourcePlugin.Type) {
        plugins[plugin.kind] = plugin
    }

    /// The plugin registered as `kind`.
    public func plugin(kind: String) -> (any SourcePlugin.Type)? {
        plugins[kind]
    }

    /// Every registered kind, sorted.
    public var kinds: [String] { plugins.keys.sorted() }
}
