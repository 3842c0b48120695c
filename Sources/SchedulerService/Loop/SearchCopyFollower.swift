public import Indexing
public import Logging
public import ServiceLifecycle

/// Keeps this replica's copy of a shared index (``SearchCopy``) up to date: follows the feed every `interval`, so
/// that searches find the copy at the head or a commit behind, and has the feed forget its old removals now and then.
public struct SearchCopyFollower: Service {
    let copy: any SearchCopy
    let feed: any IndexChangeFeed
    let interval: Duration
    let logger: Logger
    /// How often the feed's old removals are forgotten.
    static let forgetInterval: Duration = .seconds(3_600)

    public init(copy: any SearchCopy, feed: any IndexChangeFeed, interval: Duration = .seconds(1), logger: Logger) {
        self.copy = copy
        self.feed = feed
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { try await followForever() }
        } catch is CancellationError {
            // Shutting down: the copy's position is what it applied last; the next start goes on from there.
        }
    }

    private func followForever() async throws {
        var failing = false
        var lastForget = ContinuousClock.now - Self.forgetInterval
        while true {
            do {
                try await copy.follow(feed)
                if ContinuousClock.now - lastForget >= Self.forgetInterval {
                    try await feed.forgetOldRemovals()
                    lastForget = .now
                }
                if failing { logger.notice("the search copy follows the store again") }
                failing = false
            } catch let error where !(error is CancellationError) {
                // Said once per outage: the store's own errors are reported by the pass and the health check.
                if !failing { logger.warning("the search copy could not follow the store; searches go to the store meanwhile: \(error)") }
                failing = true
            }
            try await Task.sleep(for: interval)
        }
    }
}
