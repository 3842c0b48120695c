import Engine
import Indexing
public import Logging
public import ServiceLifecycle
public import Store

/// Reclaims the rows of purged domains in the background: a purge hides a domain at once, this service deletes its
/// rows step by step (each step a short transaction), resuming after a restart where the last one stopped.
public struct PurgeReclaimService: Service {
    let store: any SchedulerStore
    /// How often to look for pending purges when there are none.
    let idleInterval: Duration
    let logger: Logger

    public init(store: any SchedulerStore, idleInterval: Duration = .seconds(2), logger: Logger) {
        self.store = store
        self.idleInterval = idleInterval
        self.logger = logger
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { try await reclaimForever() }
        } catch is CancellationError {
            // Shutting down: the next start resumes where the last step ended.
        }
    }

    private func reclaimForever() async throws {
        let reclaimer = PurgeReclaimer(index: store.index, logger: logger)
        var limit = PurgeReclaimer.firstStepLimit, reclaimed = 0
        while true {
            do {
                if let (deleted, next) = try await reclaimer.step(limit: limit) {
                    (reclaimed, limit) = (reclaimed + deleted, next)
                    // Let the other writers in between steps.
                    try await Task.sleep(for: .milliseconds(10))
                    continue
                }
                if reclaimed > 0 {
                    logger.info("reclaimed the rows of purged domains", metadata: ["rows": "\(reclaimed)"])
                    reclaimed = 0
                }
            } catch let error where !(error is CancellationError) {
                logger.warning("could not reclaim the rows of purged domains; trying again: \(error)")
            }
            try await Task.sleep(for: idleInterval)
        }
    }
}
