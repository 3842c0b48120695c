import Foundation
public import Logging
public import PluginAPI
import PostgresStore
public import SchedulerConfig
public import Indexing
import SQLiteStore
public import Store

/// Opens the store a config names, with the backend its `store:` section chooses, for the service and the
/// commands alike; nothing else picks a backend.
public enum StoreOpener {
    /// Opens (creating if needed) the store at `location` and runs `body` with it; a PostgreSQL store's connections
    /// are closed when `body` returns.
    public static func withStore<Result: Sendable>(
        _ location: StoreLocation, timeToLive: Duration = StoreDefaults.timeToLive, historyLength: Int = StoreDefaults.historyLength,
        clock: any WallClock = SystemWallClock(), logger: Logger,
        _ body: (any SchedulerStore) async throws -> Result
    ) async throws -> Result {
        switch location {
        case .sqlite(let path):
            let store = try SQLiteSchedulerStore(path: path, timeToLive: timeToLive, historyLength: historyLength, clock: clock, logger: logger)
            return try await body(store)
        case .postgres(let postgres):
            return try await PostgresSchedulerStore.withStore(
                location: postgres, timeToLive: timeToLive, historyLength: historyLength, clock: clock, logger: logger
            ) { store in try await body(store) }
        }
    }

    /// Opens the store of `settings`, with its default expiration as the index's time to live and its history length.
    public static func withStore<Result: Sendable>(
        _ settings: SchedulerSettings, clock: any WallClock, logger: Logger, _ body: (any SchedulerStore) async throws -> Result
    ) async throws -> Result {
        try await withStore(
            settings.store, timeToLive: settings.defaultExpiration, historyLength: settings.historyLength, clock: clock, logger: logger, body
        )
    }

    /// The ledger of the plugin process groups started beside the store of `settings` by the replica `replicaID`
    /// (`<local files>.plugins`).
    public static func processLedger(_ settings: SchedulerSettings, replicaID: String?) -> ProcessLedger {
        ProcessLedger(path: settings.localFilesPath(replicaID: replicaID) + ".plugins")
    }
}
