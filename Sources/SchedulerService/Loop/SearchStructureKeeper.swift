public import Indexing
public import Logging
public import ServiceLifecycle

/// Keeps an index's in-memory search structures (``SearchStructureKeeping``) up to date while the service runs; after a
/// failure (a busy or unreadable database) it logs and tries again, and searches meanwhile do without them.
public struct SearchStructureKeeper: Service {
    let index: any SearchStructureKeeping
    /// How long to wait after a failure before trying again.
    let retryInterval: Duration
    let logger: Logger

    public init(index: any SearchStructureKeeping, retryInterval: Duration = .seconds(1), logger: Logger) {
        self.index = index
        self.retryInterval = retryInterval
        self.logger = logger
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while true {
                    do {
                        try await index.keepSearchStructures()
                    } catch let error where !(error is CancellationError) {
                        logger.warning("could not keep the search structures up to date; searches do without them until the next try: \(error)")
                    }
                    try await Task.sleep(for: retryInterval)
                }
            }
        } catch is CancellationError {
            // Shutting down: the structures live in memory and go with the process.
        }
    }
}
