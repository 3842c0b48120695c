import Indexing
import Logging
public import ServiceLifecycle

/// Keeps this replica's copy of a shared index (``SearchCopy``) up to date: follows the feed every `interval`, and
/// every tenth of it while commits land (an import), so that searches find the copy at the head or a commit behind;
/// after a failure, waits twice as long each time (up to a minute) before trying again.
public struct SearchCopyFollower: Service {
    let copy: any SearchCopy
    let feed: any IndexChangeFeed
    let interval: Duration
    /// Told when the copy is made, to offer it to new replicas.
    let peers: PeerSearchCopies?
    let logger: Logger
    /// The longest wait after failures in a row.
    static let longestWait: Duration = .seconds(60)

    init(copy: any SearchCopy, feed: any IndexChangeFeed, interval: Duration = .seconds(1), peers: PeerSearchCopies? = nil, logger: Logger) {
        self.copy = copy
        self.peers = peers
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
        var wait = interval
        while true {
            var applied = false
            do {
                applied = try await copy.follow(feed)
                await peers?.offerIfMade(copy)
                if wait > interval { logger.notice("the search copy follows the store again") }
                wait = interval
            } catch let error where !(error is CancellationError) {
                // Said once per outage: the store's own errors are reported by the pass and the health check.
                if wait == interval { logger.warning("the search copy could not follow the store; searches go to the store meanwhile: \(error)") }
                wait = min(wait * 2, Self.longestWait)
            }
            // Commits landing: the next ones are likely close behind, and a copy that keeps pace is searched at once
            // when they stop (rather than up to an interval later, the store answering meanwhile).
            try await Task.sleep(for: applied ? interval / 10 : wait)
        }
    }
}
