public import PluginAPI

/// A source's plugin options, decoded and validated once when the config loads: it makes the plugin of each run
/// from them, so a run never decodes or checks them again.
public struct PluginMaker: Sendable {
    private let make: @Sendable (PluginContext) throws -> any SourcePlugin

    init(_ make: @escaping @Sendable (PluginContext) throws -> any SourcePlugin) {
        self.make = make
    }

    /// The plugin of one unit.
    func plugin(context: PluginContext) throws -> any SourcePlugin {
        try make(context)
    }
}
