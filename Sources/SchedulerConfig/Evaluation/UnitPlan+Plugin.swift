public import PluginAPI

extension UnitPlan {
    /// The unit's plugin, made from its effective options as they were decoded and validated when the config loaded.
    public func makePlugin(context: PluginContext) throws -> any SourcePlugin {
        try settings.maker.plugin(context: context)
    }

    /// The runs the unit's plugin does besides full ones.
    public var sync: SyncSupport { settings.sync }
}
