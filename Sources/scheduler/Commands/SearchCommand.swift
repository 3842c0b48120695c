import ArgumentParser
import Foundation
import PluginAPI
import Indexing
import SchedulerConfig

/// `scheduler search TEXT`: what a user typing TEXT would find.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search the index: every word of TEXT is matched as a prefix, ignoring case and accents, forgiving typos and finding synonyms as the search section of scheduler.yaml says.",
        discussion: "Any text is safe: quotes, operators and punctuation are treated as plain word separators."
    )

    @Argument(help: ArgumentHelp("What to search for.", valueName: "text"))
    var text: String

    @Option(help: ArgumentHelp("Only items in this domain or under it.", valueName: "domain"))
    var domain: String?

    @Option(name: .customLong("type"), help: ArgumentHelp("Only items of this content type.", valueName: "type"))
    var contentType: String?

    @Option(help: "How many hits to show (1–\(SearchQuery.maxLimit)).")
    var limit = 20

    @Option(help: "How many hits to skip (0–\(SearchQuery.maxOffset)).")
    var offset = 0

    @Option(help: ArgumentHelp(
        "Count all matches (up to \(SearchFacet.countedMatches)) per value of these, comma-separated: \(SearchFacet.allCases.map(\.rawValue).joined(separator: ", ")).",
        valueName: "names"
    ))
    var facets: String?

    @Option(help: ArgumentHelp(
        "The order of the hits: relevance, or newest (by creation date, considering the first \(SearchSort.newestConsideredMatches) matches).",
        valueName: "order"
    ))
    var sort = "relevance"

    @Option(help: ArgumentHelp("page: at most one hit a page, the best of a page and its sections (items naming it their relatedUniqueIdentifier).", valueName: "folding"))
    var distinct: String?

    // Not `--version`, which every command reads as "show the program's version".
    @Option(name: .customLong("docs-version"), help: ArgumentHelp(
        "The documentation version to search (the API's version=), or * for every version (default: the current version of each versioned source, and the items without one).",
        valueName: "version"
    ))
    var version: String?

    @Flag(help: "Print one JSON object {total, hits} instead of text.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        var query: SearchQuery
        let settings = try store.searchSettings()
        do {
            let facets = try facets.map { names throws(SearchQueryError) in try SearchFacet.list(names) } ?? []
            query = try SearchQuery(
                text: text, domain: domain, contentType: contentType, limit: limit, offset: offset, facets: facets, sort: SearchSort.named(sort),
                distinct: distinct.map { name throws(SearchQueryError) in try SearchDistinct.named(name) },
                typos: settings.typos,
                synonyms: settings.synonyms, popularityHalfLife: settings.popularityHalfLife
            )
            query.version = try SearchVersion(parameter: version)
        } catch {
            throw ValidationError("--\(error.parameter == "version" ? "docs-version" : error.parameter): \(error.reason)")
        }
        // An operator at the store's own machine: every item, whatever its `access`.
        query.audience = .operators
        let results = try await store.withStore(logger: CommandLogger.make(), searchPostings: try store.servicePostings()) { [query] store in
            // The postings the service saved, when there are: else the search reads every row (seconds at a million).
            try await (store.index as? any SearchStructureKeeping)?.readSavedSearchStructures()
            return try await store.index.search(query)
        }
        if json { return try JSONOutput.print(results) }
        // Past the counted matches, the total is a lower bound: "100+ matches".
        print("\(results.total)\(results.totalIsExact ? "" : "+") \(results.total == 1 ? "match" : "matches")")
        for (rank, hit) in results.hits.enumerated() {
            let name = hit.title ?? hit.displayName ?? hit.uniqueIdentifier
            let authors = hit.authorNames.isEmpty ? nil : hit.authorNames.joined(separator: ", ")
            let day = hit.contentCreationDate.map { $0.formatted(.iso8601.year().month().day()) }
            let byline = [hit.title != nil ? hit.displayName : nil, authors, day].compactMap { $0 }.joined(separator: " · ")
            // One line per hit whatever the source wrote: its line breaks are shown escaped, as its controls are.
            let line = "\(offset + rank + 1). \(name)\(byline.isEmpty ? "" : " — " + byline)  [\(hit.domainIdentifier) \(hit.uniqueIdentifier)\(hit.version.map { " " + $0 } ?? "")]"
            print(VisibleText.escaping(line, keepingLineBreaks: false))
            if let link = hit.contentURL { print("   \(link)") }
            if let description = hit.contentDescription {
                let description = description.split(whereSeparator: \.isNewline).joined(separator: " ")
                print("   \(description.count > 120 ? description.prefix(119) + "…" : description)")
            }
        }
        for facet in query.facets {
            let counts = (results.facets?[facet.rawValue] ?? [:]).sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            print("\(facet.rawValue)\(results.facetsAreExact == false ? " (first \(SearchFacet.countedMatches) matches)" : ""): "
                + counts.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
    }
}
