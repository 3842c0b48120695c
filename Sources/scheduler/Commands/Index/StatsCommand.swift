import ArgumentParser
import Indexing

/// `scheduler index stats`: how many items each domain holds, and the database's size.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show the number of items per domain, the total, and the database size."
    )

    /// The JSON form of the statistics.
    struct Stats: Encodable {
        var domains: [String: Int]
        var total: Int
        var databaseBytes: Int
        var databasePath: String
    }

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let stats = try await store.withStore(logger: CommandLogger.make()) { store in
            let counts = try await store.index.itemCountsByDomain()
            return Stats(
                domains: counts,
                total: counts.values.reduce(0, +),
                databaseBytes: try await store.storageBytes(),
                databasePath: store.location
            )
        }
        let counts = stats.domains
        if json { return try JSONOutput.print(stats) }
        let width = counts.keys.map(\.count).max() ?? 0
        for (domain, count) in counts.sorted(by: { $0.key < $1.key }) {
            print(domain.padding(toLength: max(width, 6), withPad: " ", startingAt: 0) + "  \(count)")
        }
        print("total \(stats.total) items in \(stats.databasePath) (\(stats.databaseBytes) bytes)")
    }
}
