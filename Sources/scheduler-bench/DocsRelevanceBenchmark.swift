import Foundation
import Indexing
import Logging
import PluginAPI
import PostsPlugin
import SQLiteStore

/// How often the page a reader means comes first on documentation sites, searched as a docs search box searches
/// them: each site read by the `posts` plugin as a source would read it (its pages and their `##`/`###` sections, its
/// versions), all in one index, each site searched in its own domain with `distinct=page` (one hit a page, as
/// DocSearch shows them) and the current version only. Known-item queries are made of each current page's title
/// as ``RelevanceBenchmark`` makes them (the rarest word whole and the next cut to two thirds, or a version or code
/// typed whole), and the title typed whole. A hit of a page's section counts as the page.
enum DocsRelevanceBenchmark {
    /// One site: `name=DIRECTORY[,site=FILE][,flavor=hugo|jekyll|zola]`, its folder the content folder.
    struct Site {
        var name: String
        var directory: String
        var siteFile: String?
        var flavor: String?

        init(_ spec: String) throws {
            let parts = spec.split(separator: ",").map(String.init)
            guard let first = parts.first, let equals = first.firstIndex(of: "="), equals != first.startIndex else {
                throw BenchmarkError("--relevance-docs takes name=DIRECTORY[,site=FILE][,flavor=hugo], not '\(spec)'")
            }
            name = String(first[..<equals])
            directory = String(first[first.index(after: equals)...])
            for part in parts.dropFirst() {
                if part.hasPrefix("site=") { siteFile = String(part.dropFirst(5)) }
                else if part.hasPrefix("flavor=") { flavor = String(part.dropFirst(7)) }
                else { throw BenchmarkError("unknown part '\(part)' of '\(spec)': site=FILE or flavor=NAME") }
            }
        }

        var domain: String { "org.docs." + name.lowercased().filter { $0.isLetter || $0.isNumber } }
    }

    /// One known-item query, and the page it means.
    struct Query {
        var text: String
        var page: String
    }

    static func run(sites specs: [String], work: String) async throws {
        let sites = try specs.map(Site.init)
        let path = (work as NSString).appendingPathComponent("docs-relevance-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let index = try SQLiteSearchIndex(path: path, searchCacheEntries: 0, logger: Logger(label: "bench"))
        var items: [String: [SearchableItem]] = [:]
        for site in sites {
            items[site.name] = try await read(site)
            for start in stride(from: 0, to: items[site.name]!.count, by: 500) {
                try await index.commit(IndexBatch(operations: [.upsert(Array(items[site.name]![start..<min(start + 500, items[site.name]!.count)]))]))
            }
        }
        try await index.buildSearchPostings()
        print("relevance on documentation sites (sections h3, distinct=page, the current version), one index:")
        var all: [Int?] = [], allWhole: [Int?] = []
        for site in sites {
            let (typed, whole) = queries(items[site.name]!)
            let ranks = try await self.ranks(typed, site: site, index: index), wholeRanks = try await self.ranks(whole, site: site, index: index)
            all += ranks
            allWhole += wholeRanks
            let pages = items[site.name]!.count { $0.relatedUniqueIdentifier == nil }, versions = Set(items[site.name]!.compactMap(\.version)).count
            print("  \(site.name): \(pages) pages\(versions > 0 ? " in \(versions) versions" : ""), \(items[site.name]!.count - pages) sections")
            print("    \(typed.count) typed as people type: \(RelevanceBenchmark.summary(ranks))")
            print("    \(whole.count) titles typed whole: \(RelevanceBenchmark.summary(wholeRanks))")
            if versions > 0 {
                let every = try await self.ranks(typed, site: site, index: index, version: .any)
                print("    typed, every version searched (version=*, as before versions): \(RelevanceBenchmark.summary(every))")
            }
            if ProcessInfo.processInfo.environment["BENCH_MISSES"] != nil {
                for (query, rank) in zip(typed + whole, ranks + wholeRanks) where rank != 1 {
                    let hits = try await index.search(SearchQuery(text: query.text, domain: site.domain, limit: 20, distinct: .page)).hits
                    let first = hits.first, meant = hits.first { ($0.relatedUniqueIdentifier ?? $0.uniqueIdentifier) == query.page }
                    print("    \(rank.map(String.init) ?? "-")\t\(query.text)\t\(query.page) \(meant.map { "\($0.title ?? "") \($0.score)" } ?? "")\t← \(first?.title ?? "") [\(first?.uniqueIdentifier ?? "")] \(first?.score ?? 0) \(first?.displayName ?? "")")
                }
            }
        }
        print("  every site: typed \(RelevanceBenchmark.summary(all)); whole titles \(RelevanceBenchmark.summary(allWhole))")
    }

    /// The items the `posts` plugin makes of `site`, in the site's domain.
    static func read(_ site: Site) async throws -> [SearchableItem] {
        let context = PluginContext(
            source: site.name, partition: nil, domain: site.domain, deepLink: nil, baseDirectory: FileManager.default.currentDirectoryPath,
            logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        )
        let source = try PostsSource(
            options: .init(directory: site.directory, flavor: site.flavor, site: site.siteFile, sections: "h3"), context: context
        )
        var collector = Collector()
        try await source.produce(into: &collector)
        return collector.items
    }

    /// The queries of the current pages whose title no other current page of the site holds: typed as people type
    /// them, and whole.
    static func queries(_ items: [SearchableItem]) -> (typed: [Query], whole: [Query]) {
        let pages = items.filter { $0.relatedUniqueIdentifier == nil && $0.isCurrentVersion && $0.title != nil }
        var titleCounts: [String: Int] = [:]
        for page in pages { titleCounts[page.title!.lowercased(), default: 0] += 1 }
        var frequency: [String: Int] = [:]
        for page in pages { for word in Set(SearchTerms(page.title!).words) { frequency[word, default: 0] += 1 } }
        var typed: [Query] = [], whole: [Query] = []
        for page in pages where titleCounts[page.title!.lowercased()] == 1 {
            if let text = RelevanceBenchmark.knownItemQuery(page.title!, frequency: frequency) { typed.append(Query(text: text, page: page.uniqueIdentifier)) }
            whole.append(Query(text: page.title!, page: page.uniqueIdentifier))
        }
        return (typed, whole)
    }

    /// Each query's rank of its page, in the top 20 pages of the site's domain.
    static func ranks(_ queries: [Query], site: Site, index: SQLiteSearchIndex, version: SearchVersion = .current) async throws -> [Int?] {
        var ranks: [Int?] = []
        for query in queries {
            var search = try SearchQuery(text: query.text, domain: site.domain, limit: 20, distinct: .page)
            search.version = version
            let hits = try await index.search(search).hits
            ranks.append(hits.firstIndex { ($0.relatedUniqueIdentifier ?? $0.uniqueIdentifier) == query.page }.map { $0 + 1 })
        }
        return ranks
    }

    /// Keeps what the plugin sends.
    struct Collector: ItemSink {
        var items: [SearchableItem] = []
        mutating func send(_ item: SearchableItem) async throws { items.append(item) }
        mutating func delete(identifier: String) async throws {}
        mutating func send(state: SyncState) async throws {}
    }
}
