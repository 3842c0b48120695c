import ArgumentParser
import Foundation
import Indexing
import Logging
import PluginAPI
import SchedulerConfig
import SchedulerService
import SQLiteStore
import Store

/// Where the index lives: `--config DIR` (its `scheduler.yaml` names the store) or `--database PATH` (an SQLite file).
struct StoreOptions: ParsableArguments {
    @OptionGroup var config: ConfigOptions

    @Option(name: .long, help: ArgumentHelp("Use this SQLite database file instead of the store the config names.", valueName: "path"))
    var database: String?

    /// The store the options point at.
    func location() throws -> StoreLocation {
        if let database { return .sqlite(resolving: database) }
        do {
            return try ConfigLoader.storeLocation(directory: config.directory)
        } catch {
            throw UserError(error.problems.map(config.located).joined(separator: "\n"))
        }
    }

    /// The prefix of the lock files beside the store the options point at.
    func localFilesPath() throws -> String {
        try location().localFilesPath(configDirectory: URL(fileURLWithPath: config.directory))
    }

    /// Opens the store the options point at and runs `body` with it (see ``StoreOpener``). A command that writes
    /// stops gracefully on SIGTERM and SIGINT (`gracefulShutdown`); with `reclaimingPurges`, the rows of purged
    /// domains are reclaimed before it exits.
    /// An SQLite index keeps `searchPostings` (the service's setting, ``searchSettings()``, where it matters).
    func withStore<Result: Sendable>(
        logger: Logger, gracefulShutdown: Bool = false, reclaimingPurges: Bool = false, searchPostings: SearchPostingsFields = .all,
        _ body: @escaping @Sendable (any SchedulerStore) async throws -> Result
    ) async throws -> Result {
        try await StoreOpener.withStore(
            try location(), shutdownSignals: gracefulShutdown ? CommandSignals.graceful : [], reclaimingPurges: reclaimingPurges,
            searchPostings: searchPostings, logger: logger, body
        )
    }

    /// The `search.postings` of the service of this index: its config's; with `--database` alone, which reads no config
    /// (a command does not fail on a folder it was not pointed at), the setting of the postings saved beside the file,
    /// so that a command reads them or saves them as that service does, else the default.
    func servicePostings() throws -> SearchPostingsFields {
        guard database != nil, config.config == nil, case .sqlite(let path) = try location() else { return try searchSettings().postings }
        return SQLiteSearchIndex.savedPostingsFields(databasePath: path) ?? SearchSettings().postings
    }

    /// The `search:` section of the config's `scheduler.yaml`, its defaults when there is none (`--database` alone).
    func searchSettings() throws -> SearchSettings {
        do {
            return try ConfigLoader.searchSettings(directory: config.directory) ?? SearchSettings()
        } catch {
            throw UserError(error.problems.map(config.located).joined(separator: "\n"))
        }
    }
}
