import ArgumentParser
import Engine
import PluginAPI
import Store

/// `scheduler history`: the most recent runs, newest first.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the most recent runs (reindexed, failed, purged), newest first.",
        discussion: "The database keeps the last store.history runs (\(StoreDefaults.historyLength) by default)."
    )

    @Option(help: ArgumentHelp("Only the runs of this source.", valueName: "name"))
    var source: String?

    @Option(help: "How many runs to show (1–10000).")
    var limit = 20

    @Flag(help: "Print one JSON object {runs} instead of text.")
    var json = false

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be between 1 and 10000") }
    }

    func run() async throws {
        let runs = try await store.withStore(logger: CommandLogger.make()) { store in try await store.history(source: source, limit: limit) }
        if json {
            struct Output: Encodable { var runs: [RunRecord] }
            return try JSONOutput.print(Output(runs: runs))
        }
        if runs.isEmpty { print(source.map { "no runs of source '\($0)'" } ?? "no runs yet") }
        for run in runs {
            var line = "\(ISO8601.string(from: run.startedAt))  \(run.unit)  \(run.decision.rawValue)"
            if run.decision != .purged, run.mode != .full { line += " (\(run.mode.rawValue))" }
            line += ": \(run.indexed) indexed, \(run.deleted) deleted, \(run.rejected) rejected"
            line += " in \(Int((run.finishedAt.timeIntervalSince(run.startedAt)).rounded())) s"
            if let error = run.error { line += "; \(error)" } else { line += " (\(run.reason))" }
            print(VisibleText.escaping(line, keepingLineBreaks: false))
            // The first content it rejected, and why: a source's words, shown escaped.
            for rejection in run.rejections {
                print(VisibleText.escaping("    rejected \(rejection.what): \(rejection.reason)", keepingLineBreaks: false))
            }
        }
    }
}
