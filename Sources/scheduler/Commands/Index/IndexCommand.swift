import ArgumentParser

/// `scheduler index`: write to and inspect the search index directly.
struct IndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Import, delete, count and pack items in the search index.",
        subcommands: [ImportCommand.self, DeleteCommand.self, StatsCommand.self, PackCommand.self]
    )
}
