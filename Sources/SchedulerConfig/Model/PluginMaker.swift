public import PluginAPI

/// A source's plugin options, decoded and validated once when the config loads: it makes the plugin of each run
/// from them, so a run never decodes or checks them again.
public struct PluginMaker: Sendable {
    private let make: @Sendable (PluginContext) throws -> any SourcePlugin
    /// The runs the plugin does besides full ones (``SourcePlugin/sync``).
    public let sync: SyncSupport

    init(sync: SyncSupport, _ make: @escaping @Sendable (PluginContext) throws -> any SourcePlugin) {
        self.sync = sync
        self.make = make
    }

    /// The plugin of one unit.
    func plugin(context: PluginContext) throws -> any SourcePlugin {
        try make(context)
    }
}
