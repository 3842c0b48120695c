public import PluginAPI

extension UnitPlan {
    /// The unit's plugin, built from its effective options.
    public func makePlugin(registry: PluginRegistry, context: PluginContext) throws -> any SourcePlugin {
        guard let plugin = registry.plugin(kind: self.plugin) else {
            throw PluginOptionError(option: "plugin", reason: "unknown plugin '\(self.plugin)'")
        }
        return try make(plugin, context: context)
    }

    private func make<P: SourcePlugin>(_ plugin: P.Type, context: PluginContext) throws -> P {
        try P(options: PluginOptions.decode(plugin, settings.options), context: context)
    }
}
