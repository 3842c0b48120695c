public import SchedulerConfig
public import Indexing
public import Logging
public import PluginAPI

/// The index and the scheduler's state, opened together from the one database file the config names.
public struct SchedulerStore: Sendable {
    public let index: SQLiteSearchIndex
    public let state: SchedulerState
    /// The plugin process groups running on this database (`<db>.plugins`), so a pass can stop those a killed
    /// scheduler left behind.
    public let processes: ProcessLedger

    /// Opens (creating if needed) the database of `settings`, with its default expiration as the index's time to live.
    public init(settings: SchedulerSettings, clock: any WallClock, logger: Logger) throws {
        try self.init(path: settings.databasePath, timeToLive: settings.defaultExpiration, historyLength: settings.historyLength, clock: clock, logger: logger)
    }

    /// Opens (creating if needed) the database at `path`.
    public init(path: String, timeToLive: Duration = SQLiteSearchIndex.defaultTimeToLive, historyLength: Int = 1000, clock: any WallClock, logger: Logger) throws {
        index = try SQLiteSearchIndex(path: path, timeToLive: timeToLive, clock: clock, logger: logger)
        state = try SchedulerState(index: index, historyLength: historyLength)
        processes = ProcessLedger(path: path + ".plugins")
    }
}
