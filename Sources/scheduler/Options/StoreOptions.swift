import ArgumentParser
import SchedulerConfig
import Engine
import Foundation
import Indexing
import Logging
import PluginAPI
import SQLiteStore
import Store

/// Where the index lives: `--config DIR` (its `scheduler.yaml` names the database) or `--database PATH`.
struct StoreOptions: ParsableArguments {
    @OptionGroup var config: ConfigOptions

    @Option(name: .long, help: ArgumentHelp("Use this database file instead of the one the config names.", valueName: "path"))
    var database: String?

    /// The database file the options point at.
    func databasePath() throws -> String {
        if let database { return database }
        do {
            return try ConfigLoader.databasePath(directory: config.directory)
        } catch {
            throw UserError(error.problems.map(config.located).joined(separator: "\n"))
        }
    }

    /// Opens the index the options point at.
    func openIndex(logger: Logger) throws -> SQLiteSearchIndex {
        try SQLiteSearchIndex(path: databasePath(), logger: logger)
    }

    /// Opens the index and the scheduler's state the options point at.
    func openStore(logger: Logger) throws -> any SchedulerStore {
        try SQLiteSchedulerStore(path: databasePath(), logger: logger)
    }
}
