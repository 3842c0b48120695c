import ArgumentParser
import Engine
import Foundation

/// `scheduler cancel --source NAME`: the source's runs going now, on any replica, stop at their next batch boundary.
struct CancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel the runs of a source going now: they stop at their next batch boundary, on whatever replica runs them.",
        discussion: """
            The batches already committed stay; there is no success and no failure is counted, and the unit waits for its \
            next scheduled instant unless forced. A forced run queued in a service is dropped by its admin endpoint \
            (POST /sources/NAME/cancel) instead. Exits 1 when no unit of the source is running, 2 when the configuration \
            is invalid.
            """
    )

    @Option(help: ArgumentHelp("The source whose runs to cancel.", valueName: "name"))
    var source: String

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let sources = try store.config.loadOrExit().scheduler.sources.map(\.name)
        do {
            try KnownSources.require(source, among: sources)
        } catch {
            throw ValidationError(error.description)
        }
        let by = "scheduler cancel (\(ProcessInfo.processInfo.userName)@\(ProcessInfo.processInfo.hostName))"
        let units = try await store.withStore(logger: CommandLogger.make()) { [source] store in try await store.requestCancel(source: source, by: by) }
        guard !units.isEmpty else {
            printError("nothing to cancel: no unit of source '\(source)' is running")
            throw ExitCode(1)
        }
        print("cancel requested: \(units.joined(separator: ", ")) stop\(units.count == 1 ? "s" : "") at the next batch boundary")
    }
}
