import ArgumentParser
import Engine
import PluginAPI

/// `scheduler purge --domain D`: an operator's explicit purge of a domain and the success records under it.
struct PurgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Delete a domain and every domain under it, and forget the successes of the units there.",
        discussion: """
            Use it for orphaned domains (a source removed from the config is never purged on its own). A unit whose \
            gate is still on is reindexed by the next pass. Works with an invalid gates or experiments file. Exits 3, \
            without waiting, when a pass holds the database's lock.
            """
    )

    @Option(help: ArgumentHelp("The domain to purge, such as com.shop.help.", valueName: "domain"))
    var domain: String

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard DomainIdentifier.isValid(domain) else { throw ValidationError(DomainIdentifier.syntaxProblem(domain)) }
    }

    func run() async throws {
        let logger = CommandLogger.make()
        let deleted = try await PassLock.withPassOrExit(localFilesPath: try store.localFilesPath()) {
            // Gone from every search at once; the rows are reclaimed in short steps before the command exits.
            try await CommandSignals.exitingWhenStopped("the purge was confirmed: run it again to be sure (purging again is harmless)") {
                try await store.withStore(logger: logger, gracefulShutdown: true, reclaimingPurges: true) { [domain] store in
                    try await OperatorPurge.purge(domain: domain, store: store)
                }
            }
        }
        print("purged \(domain): \(deleted) items deleted")
    }
}
