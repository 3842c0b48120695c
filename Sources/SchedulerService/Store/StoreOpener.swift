public import Logging
public import PluginAPI
public import SchedulerConfig
public import Store
import SQLiteStore

/// Opens the store a config names, with the backend its `store:` section chooses, for the service and the
/// commands alike; nothing else picks a backend.
public enum StoreOpener {
    /// Opens (creating if needed) the store of `settings`, with its default expiration as the index's time to live.
    public static func open(_ settings: SchedulerSettings, clock: any WallClock, logger: Logger) throws -> any SchedulerStore {
        try SQLiteSchedulerStore(
            path: settings.databasePath, timeToLive: settings.defaultExpiration, historyLength: settings.historyLength,
            clock: clock, logger: logger
        )
    }

    /// The ledger of the plugin process groups started on the store of `settings` (`<db>.plugins`).
    public static func processLedger(_ settings: SchedulerSettings) -> ProcessLedger {
        ProcessLedger(path: settings.databasePath + ".plugins")
    }
}
