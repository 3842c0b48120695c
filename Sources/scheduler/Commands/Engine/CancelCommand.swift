import ArgumentParser
import Engine
import Foundation

/// `scheduler cancel --source NAME`: the source's runs going now, on any replica, stop within seconds (the plugin is stopped; what was committed stays).
struct CancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel the runs of a source going now: their plugins are stopped within seconds, on whatever replica runs them.",
        discussion: """
            The batches already committed stay; there is no success and no failure is counted, and the unit waits for its \
            next scheduled instant unless forced. A forced run queued in a service is dropped by its admin endpoint \
            (POST /sources/NAME/cancel) instead. Exits 1 when no unit of the source is running, 2 when the configuration \
            is invalid.
            """
    )

    @OptionGroup var target: SourceOption
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let (source, by) = (target.source, SourceOption.actor("cancel"))
        _ = try target.sources(in: store.config)
        let units = try await store.withStore(logger: CommandLogger.make()) { store in try await store.requestCancel(source: source, by: by) }
        guard !units.isEmpty else {
            printError("nothing to cancel: no unit of source '\(source)' is running")
            throw ExitCode(1)
        }
        print("cancel requested: \(units.joined(separator: ", ")) stop\(units.count == 1 ? "s" : "") within seconds")
    }
}
