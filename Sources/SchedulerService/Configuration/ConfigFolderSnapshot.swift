import Foundation
public import SchedulerConfig

/// What the config files hold at one moment, compared between polls to notice a change: the three config files and
/// the flagd definition files they name.
///
/// Contents are read through symbolic links and never past the loader's limits, so a folder whose files are swapped by replacing a link (as
/// Kubernetes updates a ConfigMap) is seen to change, and an edit that keeps the modification time is too.
/// Take one before loading the configuration and give it to the ``ConfigWatcher``: an edit made while the
/// service starts is then noticed by the first poll.
public struct ConfigFolderSnapshot: Equatable, Sendable {
    /// Per file: what it holds.
    private var contents: [String: ConfigFileBytes]

    /// The files `loader` reads, as they are now.
    public init(loader: ConfigLoader) {
        var contents: [String: ConfigFileBytes] = [:]
        for file in loader.watchedFiles() {
            contents[file] = loader.contents(of: file)
        }
        self.contents = contents
    }
}
