import CommandPlugin
import PluginAPI

/// The plugins this build of the scheduler hosts.
enum BuiltinPlugins {
    static let registry = PluginRegistry([CommandSource.self])
}
