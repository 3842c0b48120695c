import Foundation
import PluginAPI

/// What the `posts` plugin remembers between runs (its ``SyncState``): each file's size, modification time and
/// digest, and the identifiers it published, so an incremental run reads only the files that changed and deletes the
/// items of those gone. Made with one site file and set of settings (``settings``): with others, it is no use.
struct PostsState: Codable, Equatable {
    /// Bumped when the form changes: a state of another version is no use.
    static let version = 1

    /// One file as the last run saw it.
    struct File: Codable, Equatable {
        var size: Int
        var modified: Double
        var digest: String
        /// The identifiers the file published (its page's and its sections'); none when it was skipped or refused.
        var ids: [String]
    }

    var version = PostsState.version
    /// The digest of what decides every file's items besides the file: the options and the site file.
    var settings: String
    var files: [String: File] = [:]

    /// The state a run was handed, when it is of this version and these settings; throws ``SyncStateUnusable`` else.
    static func decode(_ state: SyncState, settings: String) throws(SyncStateUnusable) -> PostsState {
        guard let decoded = try? state.decode(as: PostsState.self), decoded.version == version else {
            throw SyncStateUnusable("the state is not one this version of the posts plugin wrote")
        }
        guard decoded.settings == settings else {
            throw SyncStateUnusable("the options or the site's configuration changed since the state was written")
        }
        return decoded
    }
}
