import ArgumentParser

/// The `scheduler` command: a feature-flagged reindex scheduler and its search index.
@main
struct Scheduler: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scheduler",
        abstract: "A feature-flagged reindex scheduler that hosts source plugins and keeps a search index.",
        version: "\(Self.version) (commit \(BuildInfo.commit))",
        subcommands: [
            RunCommand.self, RunOnceCommand.self, StatusCommand.self, HistoryCommand.self, PauseCommand.self, ResumeCommand.self, CancelCommand.self, PurgeCommand.self, SearchCommand.self, ItemCommand.self, AnalyticsCommand.self, IndexCommand.self, KeysCommand.self,
            ValidateCommand.self, GatesCommand.self, PluginsCommand.self, OpenAPICommand.self,
        ]
    )

    /// The release this source is; `--version` adds the commit it was built from.
    static let version = "0.1.0"
}
