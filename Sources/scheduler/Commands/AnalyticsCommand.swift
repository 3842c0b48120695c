import ArgumentParser
import Foundation
import Indexing
import PluginAPI

/// `scheduler analytics`: what people searched for and opened, as `GET /analytics` reports it.
struct AnalyticsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics",
        abstract: "Show what people searched for and opened: top queries, queries without hits, most opened items, click-through.",
        discussion: """
            Counted by the service (scheduler run): a search as the query a person finished typing, an open once per client, \
            item and hour. Nothing about who searched is stored. Days older than search.analyticsRetention are deleted.
            """
    )

    @Option(help: ArgumentHelp("How far back to look: a duration of a day or more, such as 7d or 12w.", valueName: "duration"))
    var since = "30d"

    @Option(help: "How many of each list to show (1–\(SearchAnalytics.maxLimit)).")
    var limit = SearchAnalytics.defaultLimit

    @Flag(help: "Print one JSON object, as GET /analytics answers, instead of text.")
    var json = false

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard let window = DurationText.parse(since), window >= .seconds(86_400) else {
            throw ValidationError("--since must be a duration of a day or more, such as 7d or 12w")
        }
        guard (1...SearchAnalytics.maxLimit).contains(limit) else {
            throw ValidationError("--limit must be between 1 and \(SearchAnalytics.maxLimit)")
        }
    }

    func run() async throws {
        let day = SearchAnalytics.firstDay(of: DurationText.parse(since)!, now: Date())
        let report = try await store.withStore(logger: CommandLogger.make()) { store in try await store.index.analytics(since: day, limit: limit) }
        if json { return try JSONOutput.print(report) }
        print("since \(report.since.formatted(.iso8601.year().month().day())): \(report.searches) searches, \(report.searchesWithoutHits) without hits, \(report.opens) opens")
        func table(_ title: String, _ queries: [SearchAnalytics.Query]) {
            guard !queries.isEmpty else { return }
            print("\n\(title)")
            for query in queries {
                let rate = query.clickThrough.map { String(format: "%.0f %%", $0 * 100) } ?? "-"
                print("  \(query.query.padding(toLength: max(24, query.query.count), withPad: " ", startingAt: 0))  \(query.searches) searches, \(query.withoutHits) without hits, \(query.opens) opens, click-through \(rate)")
            }
        }
        table("top queries", report.topQueries)
        table("queries without hits", report.queriesWithoutHits)
        if !report.mostOpened.isEmpty {
            print("\nmost opened")
            for item in report.mostOpened { print("  \(item.opens)  \(item.title ?? item.uniqueIdentifier)  [\(item.uniqueIdentifier)]") }
        }
    }
}
