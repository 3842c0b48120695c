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

    @OptionGroup var target: SourceOption
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let (source, sources, by) = (target.source, try target.sources(in: store.config), SourceOption.actor("pause"))
        let change = try await store.withStore(logger: CommandLogger.make()) { store in
            try await OperatorPause.pause(source: source, sources: sources, by: by, at: Date(), store: store)
        }
        print("\(change.source): \(change.status)")
    }
}
