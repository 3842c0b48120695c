import CategoryFeedPlugin
import CommandPlugin
import PluginAPI
import PostsPlugin

/// The plugins this build of the scheduler hosts.
enum BuiltinPlugins {
    static let registry = PluginRegistry([CategoryFeedSource.self, CommandSource.self, PostsSource.self])
}
