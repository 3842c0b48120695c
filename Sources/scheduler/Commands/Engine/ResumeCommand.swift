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

    @OptionGroup var target: SourceOption
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let (source, sources) = (target.source, try target.sources(in: store.config, allowingUnknown: true))
        let change = try await store.withStore(logger: CommandLogger.make()) { store in
            do {
                return try await OperatorPause.resume(source: source, sources: sources, store: store)
            } catch let refusal as KnownSources.Refusal {
                throw ValidationError(refusal.description)
            }
        }
        print("\(change.source): \(change.status)")
    }
}
