import Foundation
import SchedulerConfig

/// What the config files hold at one moment, compared between polls to notice a change.
///
/// Contents are read through symbolic links, so a folder whose files are swapped by replacing a link (as
/// Kubernetes updates a ConfigMap) is seen to change, and an edit that keeps the modification time is too.
/// Take one before loading the configuration and give it to the ``ConfigWatcher``: an edit made while the
/// service starts is then noticed by the first poll.
public struct ConfigFolderSnapshot: Equatable, Sendable {
    /// Per file: its bytes, or `nil` when it is missing or unreadable.
    private var contents: [String: Data?]

    public init(directory: String) {
        let folder = URL(fileURLWithPath: directory)
        var contents: [String: Data?] = [:]
        for name in [ConfigLoader.schedulerFile, ConfigLoader.gatesFile, ConfigLoader.experimentsFile] {
            contents[name] = try? Data(contentsOf: folder.appendingPathComponent(name).resolvingSymlinksInPath())
        }
        self.contents = contents
    }
}
