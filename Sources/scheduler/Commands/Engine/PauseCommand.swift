import ArgumentParser
import Engine
import Foundation

/// `scheduler pause --source NAME`: every pass, on every replica, leaves the source's units alone until it is resumed.
struct PauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Pause a source: no run of its units starts, on any replica, until it is resumed; nothing is purged.",
        discussion: """
            The pause is kept in the store: it survives restarts and every replica obeys it from its next pass. A run \
            already going finishes. A gate turned off still purges a paused source's units. Pausing a paused source \
            changes nothing. Exits 2 when the configuration is invalid.
            """
    )

    @Option(help: ArgumentHelp("The source to pause, as scheduler.yaml names it.", valueName: "name"))
    var source: String

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let sources = try store.config.loadOrExit().scheduler.sources.map(\.name)
        do {
            try KnownSources.require(source, among: sources)
        } catch {
            throw ValidationError(error.description)
        }
        let by = "scheduler pause (\(ProcessInfo.processInfo.userName)@\(ProcessInfo.processInfo.hostName))"
        let change = try await store.withStore(logger: CommandLogger.make()) { [source] store in
            do {
                return try await OperatorPause.pause(source: source, sources: sources, by: by, at: Date(), store: store)
            } catch let refusal as KnownSources.Refusal {
                throw ValidationError(refusal.description)
            }
        }
        print("\(change.source): \(change.status)")
    }
}
