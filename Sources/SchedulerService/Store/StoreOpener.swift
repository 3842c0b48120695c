import Engine
import Foundation
public import Indexing
public import HostSupport
public import Logging
public import PluginAPI
import PostgresStore
public import SchedulerConfig
import ServiceLifecycle
import SQLiteStore
public import Store
public import UnixSignals

/// Opens the store a config names, with the backend its `store:` section chooses, for the service and the
/// commands alike; nothing else picks a backend.
///
/// Whoever uses a store does it in one `ServiceGroup` with the store's own services (PostgreSQL's connection pool):
/// the work is a service listed after them, so a graceful shutdown stops the work first and the pool last, and
/// the work's last writes (a lease's release, leaving the roll of replicas) still reach the database.
public enum StoreOpener {
    /// How long the work may take to stop gracefully before it is cancelled (the service's own group uses it).
    public static let maximumGracefulShutdown: Duration = .seconds(30)
    /// How long the store's services wait for the work: its own limit and then a cleanup's, so a work cancelled at
    /// its limit still has a live pool for its last writes.
    static let storeGracefulShutdown = maximumGracefulShutdown + StoreDeadline.cleanup.limit

    /// Opens (creating if needed) the store at `location` and runs `body` with it as a service beside the store's
    /// own; returns when `body` has returned and the store's services have stopped. `shutdownSignals` start a
    /// graceful shutdown: `body` sees it as any service does (`cancelWhenGracefulShutdown`, a nested
    /// `ServiceGroup`), then the store's services stop. With `reclaimingPurges`, the rows of the domains purged
    /// (by `body` or before) are reclaimed after `body`, before the store closes; a shutdown stops that between two
    /// steps, and the next start resumes it.
    ///
    /// An SQLite index keeps `searchPostings` and `searchRowCacheMegabytes` of candidate rows (`nil`: the default) as
    /// `search.postings` and `search.rowCacheMegabytes` say.
    ///
    /// A PostgreSQL store hands its searches to `searchCopy` while it can answer them; whoever keeps the copy up to
    /// date runs a ``SearchCopyFollower`` (the service does).
    public static func withStore<Result: Sendable>(
        _ location: StoreLocation, timeToLive: Duration = StoreDefaults.timeToLive, historyLength: Int = StoreDefaults.historyLength,
        clock: any WallClock = SystemWallClock(), shutdownSignals: [UnixSignal] = [], reclaimingPurges: Bool = false,
        searchCopy: (any SearchCopy)? = nil, searchPostings: SearchPostingsFields = .all,
        searchRowCacheMegabytes: Int? = nil, logger: Logger,
        _ body: @escaping @Sendable (any SchedulerStore) async throws -> Result
    ) async throws -> Result {
        let (store, services, prepare): (any SchedulerStore, [any Service], @Sendable () async throws -> Void)
        switch location {
        case .sqlite(let path):
            store = try SQLiteSchedulerStore(
                path: path, timeToLive: timeToLive, historyLength: historyLength, clock: clock, searchPostings: searchPostings,
                searchRowCacheBytes: SQLiteSearchIndex.rowCacheBytes(megabytes: searchRowCacheMegabytes), logger: logger
            )
            (services, prepare) = ([], {})
        case .postgres(let postgres):
            let shared = try PostgresSchedulerStore(
                location: postgres, timeToLive: timeToLive, historyLength: historyLength, clock: clock, searchCopy: searchCopy, logger: logger
            )
            (store, services, prepare) = (shared, [shared.connectionPool], shared.prepare)
        }
        let work = StoreWork {
            try await prepare()
            let result = try await body(store)
            if reclaimingPurges {
                do {
                    _ = try await cancelWhenGracefulShutdown { try await PurgeReclaimer(index: store.index, logger: logger).reclaimAll() }
                } catch is CancellationError {
                    // The purged domains are already invisible; the rest of their rows go at the next start.
                } catch {
                    // The work is committed: a reclaim that fails (a busy database) is resumed by the next start.
                    logger.warning("could not reclaim the rows of purged domains now; the next start resumes it: \(error)")
                }
            }
            return result
        }
        var group = ServiceGroupConfiguration(
            services: services.map { .init(service: $0) } + [.init(service: work, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: shutdownSignals, logger: logger
        )
        group.maximumGracefulShutdownDuration = storeGracefulShutdown
        try await ServiceGroup(configuration: group).run()
        return try work.result()
    }

    /// Opens the store of `settings`, with its default expiration as the index's time to live and its history length.
    public static func withStore<Result: Sendable>(
        _ settings: SchedulerSettings, clock: any WallClock, shutdownSignals: [UnixSignal] = [], reclaimingPurges: Bool = false,
        searchCopy: (any SearchCopy)? = nil, logger: Logger, _ body: @escaping @Sendable (any SchedulerStore) async throws -> Result
    ) async throws -> Result {
        try await withStore(
            settings.store, timeToLive: settings.defaultExpiration, historyLength: settings.historyLength, clock: clock,
            shutdownSignals: shutdownSignals, reclaimingPurges: reclaimingPurges, searchCopy: searchCopy, searchPostings: settings.search.postings,
            searchRowCacheMegabytes: settings.search.rowCacheMegabytes, logger: logger, body
        )
    }

    /// The ledger of the plugin process groups started beside the store of `settings` by the replica `replicaID`
    /// (`<local files>.plugins`).
    public static func processLedger(_ settings: SchedulerSettings, replicaID: String?) -> ProcessLedger {
        ProcessLedger(path: settings.localFilesPath(replicaID: replicaID) + ".plugins")
    }
}
