/// A copy of an index kept on this machine that answers its searches: the PostgreSQL store hands its searches to one,
/// which answers in the time of the embedded index instead of a round trip per scan.
public protocol SearchCopy: Sendable {
    /// The results of `query` from the copy once it holds every change `feed` has (a few commits behind, it catches
    /// up first); `nil` when it cannot answer yet (being made, or too far behind): the caller searches itself.
    func search(_ query: SearchQuery, following feed: any IndexChangeFeed) async throws -> SearchResults?

    /// Brings the copy up to `feed`'s head, making it first when there is none: what a service calls every second
    /// or so, so that searches rarely wait, and again soon after when it applied commits (writes are landing).
    /// Returns whether the copy's commit moved since the call began (commits applied, the copy made or dropped).
    @discardableResult
    func follow(_ feed: any IndexChangeFeed) async throws -> Bool

    /// Whether a complete copy is open (it may be behind).
    var isMade: Bool { get async }

    /// Whether the copy is about to be, or being, fetched from another replica: searches go to the store until it
    /// is, at the store's speed, so a load balancer should send them elsewhere (the service is not ready).
    var isWarming: Bool { get async }
}

/// The copy itself failed (its file, its disk), not the index it follows: the caller searches itself and says so.
public struct SearchCopyFailure: Error, CustomStringConvertible {
    public var path: String
    public var underlying: any Error

    public init(path: String, underlying: any Error) {
        self.path = path
        self.underlying = underlying
    }

    public var description: String { "the search copy at \(path) failed: \(underlying)" }
}
