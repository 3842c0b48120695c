import ArgumentParser
import Indexing

/// `scheduler index stats`: how many items each domain holds, the database's size, and its saved search postings'.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show the number of items per domain, the total, the database size and its saved search postings' size."
    )

    /// The JSON form of the statistics.
    struct Stats: Encodable {
        var domains: [String: Int]
        var total: Int
        var databaseBytes: Int
        var databasePath: String
        /// The search postings saved beside an SQLite database; absent when there are none.
        var savedSearchPostingsBytes: Int?
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
                databasePath: store.location,
                savedSearchPostingsBytes: try await store.savedSearchStructureBytes()
            )
        }
        let counts = stats.domains
        if json { return try JSONOutput.print(stats) }
        let width = counts.keys.map(\.count).max() ?? 0
        for (domain, count) in counts.sorted(by: { $0.key < $1.key }) {
            print(domain.padding(toLength: max(width, 6), withPad: " ", startingAt: 0) + "  \(count)")
        }
        let postings = stats.savedSearchPostingsBytes.map { "; its saved search postings beside it: \($0) bytes" } ?? ""
        print("total \(stats.total) items in \(stats.databasePath) (\(stats.databaseBytes) bytes\(postings))")
    }
}
