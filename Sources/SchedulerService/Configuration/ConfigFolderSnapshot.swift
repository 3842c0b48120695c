import Foundation
public import SchedulerConfig

/// What the config files hold at one moment, compared between polls to notice a change: the three config files and
/// the flagd definition files they name.
///
/// Contents are read through symbolic links, so a folder whose files are swapped by replacing a link (as
/// Kubernetes updates a ConfigMap) is seen to change, and an edit that keeps the modification time is too.
/// Take one before loading the configuration and give it to the ``ConfigWatcher``: an edit made while the
/// service starts is then noticed by the first poll.
public struct ConfigFolderSnapshot: Equatable, Sendable {
    /// Per file: its bytes, or `nil` when it is missing or unreadable.
    private var contents: [String: Data?]

    public init(loader: ConfigLoader) {
        var contents: [String: Data?] = [:]
        for file in loader.watchedFiles() {
            contents[file] = try? Data(contentsOf: loader.url(of: file).resolvingSymlinksInPath())
        }
        self.contents = contents
    }
}
