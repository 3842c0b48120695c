import ArgumentParser
import Foundation
import Indexing
import Logging

/// Where the index lives: `--config DIR` (its `scheduler.yaml` names the database) or `--database PATH`.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The configuration folder holding scheduler.yaml (default: $SCHEDULER_CONFIG, or 'config').",
            valueName: "dir"
        )
    )
    var config: String?

    @Option(name: .long, help: ArgumentHelp("Use this database file instead of the one the config names.", valueName: "path"))
    var database: String?

    /// The configuration folder in force.
    var configDirectory: String {
        config ?? ProcessInfo.processInfo.environment["SCHEDULER_CONFIG"] ?? "config"
    }

    /// Opens the index the options point at.
    func openIndex(logger: Logger) throws -> SQLiteSearchIndex {
        let path = try database ?? StoreLocation.databasePath(configDirectory: configDirectory)
        return try SQLiteSearchIndex(path: path, logger: logger)
    }
}
