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
        while true {
            do {
                _ = try await reclaimer.reclaimAll(pausing: .milliseconds(10))
            } catch let error where !(error is CancellationError) {
                logger.warning("could not reclaim the rows of purged domains; trying again: \(error)")
            }
            try await Task.sleep(for: idleInterval)
        }
    }
}
