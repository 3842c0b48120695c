import PluginAPI

/// What the `category-feed` plugin remembers between runs (its ``SyncState``): the feed's validators for the next
/// conditional request, the digest of its bytes (a server without validators that sends the same feed is not read
/// again), and the identifiers it published (those gone from the next feed are deleted).
struct FeedState: Codable, Equatable {
    /// Bumped when the form changes: a state of another version is no use.
    static let version = 1

    var version = FeedState.version
    /// The feed (URL or path) it was made from: another feed's state is no use.
    var feed: String
    var validators: HTTPFetcher.Validators
    var digest: String
    var ids: [String]

    /// The state a run was handed, when this version wrote it for `feed`; throws ``SyncStateUnusable`` else.
    static func decode(_ state: SyncState, feed: String) throws(SyncStateUnusable) -> FeedState {
        guard let decoded = try? state.decode(as: FeedState.self), decoded.version == version else {
            throw SyncStateUnusable("the state is not one this version of the category-feed plugin wrote")
        }
        guard decoded.feed == feed else { throw SyncStateUnusable("the state was made from another feed") }
        return decoded
    }
}
