import CommandPlugin
import PluginAPI
import PostsPlugin

/// The plugins this build of the scheduler hosts.
enum BuiltinPlugins {
    static let registry = PluginRegistry([CommandSource.self, PostsSource.self])
}
