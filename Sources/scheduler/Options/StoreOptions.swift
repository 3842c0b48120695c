import ArgumentParser
import Configuration
import Foundation
import Indexing
import Logging

/// Where the index lives: `--config DIR` (its `scheduler.yaml` names the database) or `--database PATH`.
struct StoreOptions: ParsableArguments {
    @OptionGroup var config: ConfigOptions

    @Option(name: .long, help: ArgumentHelp("Use this database file instead of the one the config names.", valueName: "path"))
    var database: String?

    /// Opens the index the options point at.
    func openIndex(logger: Logger) throws -> SQLiteSearchIndex {
        var path = database ?? ""
        if database == nil {
            do {
                path = try ConfigLoader.databasePath(directory: config.directory)
            } catch {
                throw UserError(error.problems.map(config.located).joined(separator: "\n"))
            }
        }
        return try SQLiteSearchIndex(path: path, logger: logger)
    }
}
