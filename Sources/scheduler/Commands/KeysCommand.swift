import ArgumentParser
import Foundation
import SchedulerService

/// `scheduler keys`: the search keys applications search with when `search.access` is `keys`.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make, list and revoke the search keys applications search with (search.access: keys).",
        discussion: """
            A key finds the items of its domains and of the domains under them, and signs tenant tokens for one user \
            (docs/security.md). Keys live in the store: every replica knows a key made or revoked here within seconds. \
            Making one needs \(SearchKeySecrets.environmentVariable), the service's secret, in the environment.
            """,
        subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a search key and print its secret, shown this once.",
            discussion: "Exits 2 when the name, a domain or the expiry is refused, or when \(SearchKeySecrets.environmentVariable) is not set."
        )

        @Option(help: "What the key is for (1 to 200 bytes, no control characters).")
        var name: String
        @Option(name: .customLong("domain"), help: ArgumentHelp("A domain the key finds items in, with those under it; repeat for more.", valueName: "domain"))
        var domains: [String] = []
        @Option(help: ArgumentHelp("When the key stops working, in ISO 8601 (2027-01-31T00:00:00Z); without it, when revoked.", valueName: "date"))
        var expires: String?
        @Flag(help: "Print the key as JSON.")
        var json = false
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let secrets = try Self.secrets()
            let expiry = try expires.map { text in
                guard let date = try? Date(text, strategy: .iso8601) else {
                    throw UserError("--expires '\(text.prefix(40))' is not an ISO 8601 date and time, such as 2027-01-31T00:00:00Z")
                }
                return date
            }
            let (key, secret) = try await store.withStore(logger: CommandLogger.make()) { store in
                do {
                    return try await SearchKeyIssuer(store: store, secrets: secrets).create(name: name, domains: domains, expires: expiry, now: Date())
                } catch let problem as SearchKeyProblem {
                    throw UserError(problem.description)
                }
            }
            if json { return try JSONOutput.print(SearchKeyDocument(key, secret: secret)) }
            print("uid: \(key.uid)\nkey: \(secret)\n(the key is shown this once: keep it where the application keeps secrets)")
        }

        private static func secrets() throws -> SearchKeySecrets {
            do {
                guard let secrets = try SearchKeySecrets.fromEnvironment() else { throw UserError(SearchKeyProblem.noSecret.description) }
                return secrets
            } catch let error as SearchKeySecretsError {
                throw UserError(error.description)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the search keys not revoked, without their secrets.")

        @Flag(help: "Print the keys as JSON.")
        var json = false
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let keys = try await store.withStore(logger: CommandLogger.make()) { store in
                try await SearchKeyIssuer(store: store, secrets: nil).list()
            }
            if json { return try JSONOutput.print(keys.map { SearchKeyDocument($0) }) }
            if keys.isEmpty { return print("no search keys") }
            for key in keys {
                let expiry = key.expires.map { " expires \($0.formatted(.iso8601))" } ?? ""
                print("\(key.uid)  \(key.name)  \(key.domains.joined(separator: ","))\(expiry)")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a search key: it and the tenant tokens it signed stop working on every replica within seconds.",
            discussion: "Exits 2 when no key has this uid."
        )

        @Argument(help: "The key's uid, as scheduler keys list prints it.")
        var uid: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let revoked = try await store.withStore(logger: CommandLogger.make()) { store in
                try await SearchKeyIssuer(store: store, secrets: nil).revoke(uid: uid)
            }
            guard revoked else { throw UserError("no search key '\(uid.prefix(40))': list them with scheduler keys list") }
            print("revoked \(uid)")
        }
    }
}
