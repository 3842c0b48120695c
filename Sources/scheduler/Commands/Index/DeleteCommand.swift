import ArgumentParser
import Engine
import Indexing
import PluginAPI

/// `scheduler index delete`: removes items by identifier, by domain (hierarchically), or all of them.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete items by identifier, by domain (and every domain under it), or all items.",
        discussion: "Give exactly one of --id, --domain or --all. All deletions of one call are one transaction."
    )

    @Option(name: .customLong("id"), help: ArgumentHelp("Delete the item with this unique identifier (repeatable).", valueName: "id"))
    var identifiers: [String] = []

    @Option(name: .customLong("domain"), help: ArgumentHelp("Delete this domain and every domain under it (repeatable).", valueName: "domain"))
    var domains: [String] = []

    @Flag(help: "Delete every item in the index.")
    var all = false

    @OptionGroup var store: StoreOptions

    func validate() throws {
        let kinds = [!identifiers.isEmpty, !domains.isEmpty, all].filter { $0 }.count
        guard kinds == 1 else {
            throw ValidationError("give exactly one of --id, --domain or --all")
        }
        if let bad = domains.first(where: { !DomainIdentifier.isValid($0) }) {
            throw ValidationError(DomainIdentifier.syntaxProblem(bad))
        }
    }

    func run() async throws {
        let operation: IndexBatch.Operation =
            all ? .deleteAll : domains.isEmpty ? .deleteIdentifiers(identifiers) : .deleteDomains(domains)
        let logger = CommandLogger.make()
        // Deleted domains are gone from every search at once; their rows go in short steps before the command exits.
        let outcome = try await CommandSignals.exitingWhenStopped("the deletion was confirmed: run it again to be sure (deleting again is harmless)") {
            try await store.withStore(logger: logger, gracefulShutdown: true, reclaimingPurges: true) { store in
                try await store.index.commit(IndexBatch(operations: [operation]))
            }
        }
        print("deleted \(outcome.deleted) items")
    }
}
