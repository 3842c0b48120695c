import ArgumentParser
import Engine
import Foundation

/// `scheduler resume --source NAME`: ends a pause; the source's units run when they are due.
struct ResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Resume a paused source: its units run when they are due, from the next pass.",
        discussion: """
            A unit whose due date passed while the source was paused runs at the next pass. A paused source that the \
            configuration no longer names may be resumed too. Exits 2 when the configuration is invalid.
            """
    )

    @Option(help: ArgumentHelp("The source to resume.", valueName: "name"))
    var source: String

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let sources = try store.config.loadOrExit().scheduler.sources.map(\.name)
        let change = try await store.withStore(logger: CommandLogger.make()) { [source] store in
            do {
                return try await OperatorPause.resume(source: source, sources: sources, store: store)
            } catch let refusal as KnownSources.Refusal {
                throw ValidationError(refusal.description)
            }
        }
        print("\(change.source): \(change.status)")
    }
}
