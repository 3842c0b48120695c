import Indexing
@testable import SchedulerConfig
import Testing

/// The `search:` section of `scheduler.yaml`, checked like every other key.
@Suite("Search settings in scheduler.yaml")
struct SearchSettingsTests {
    static func withSearch(_ section: String) -> String {
        ConfigFolder.scheduler.replacingOccurrences(of: "sources:\n", with: section + "\nsources:\n")
    }

    @Test func typosAreForgivenByDefaultAndSetAsWritten() throws {
        #expect(try ConfigFolder().load().scheduler.search.typos == .standard)
        let folder = try ConfigFolder(scheduler: Self.withSearch("search:\n  typos: { oneTypoFrom: 4, twoTyposFrom: 8, disabledOn: [SKU, Réf] }"))
        let typos = try folder.load().scheduler.search.typos
        #expect(typos == TypoTolerance(oneTypoFrom: 4, twoTyposFrom: 8, disabledOn: ["sku", "ref"]))
        #expect(try ConfigFolder(scheduler: Self.withSearch("search: { typos: false }")).load().scheduler.search.typos == .off)
        #expect(try ConfigFolder(scheduler: Self.withSearch("search: { typos: true }")).load().scheduler.search.typos == .standard)
        #expect(try ConfigLoader.searchSettings(directory: folder.url.path)?.typos == typos)
        #expect(try ConfigLoader.searchSettings(directory: "/nonexistent-\(UInt64.random(in: 0...UInt64.max))") == nil)
    }

    @Test func corsOriginsAreOriginsAsBrowsersSendThem() throws {
        #expect(try ConfigFolder().load().scheduler.search.corsOrigins.isEmpty, "no cross-origin answer unless asked")
        let folder = try ConfigFolder(scheduler: Self.withSearch("search: { cors: { origins: [HTTPS://Shop.Example, 'http://localhost:3000'] } }"))
        #expect(try folder.load().scheduler.search.corsOrigins == ["https://shop.example", "http://localhost:3000"])
        for bad in ["'*'", "https://shop.example/", "https://shop.example/path", "ftp://shop.example", "shop.example", "'https://*.shop.example'", "https://user@shop.example"] {
            let problems = try ConfigFolder(scheduler: Self.withSearch("search: { cors: { origins: [\(bad)] } }")).problems().map(\.description)
            #expect(problems.contains { $0.contains("is not an origin") && $0.contains("scheduler.yaml:") }, "\(bad): \(problems)")
        }
        for bad in ["search: { cors: { origin: [https://a.example] } }", "search: { cors: { origins: [] } }", "search: { cors: true }"] {
            #expect(try !ConfigFolder(scheduler: Self.withSearch(bad)).problems().isEmpty, "\(bad)")
        }
    }

    @Test func synonymsAreReadAsWritten() throws {
        #expect(try ConfigFolder().load().scheduler.search.synonyms == .none)
        let folder = try ConfigFolder(scheduler: Self.withSearch("search:\n  synonyms:\n    - [tee, T-shirt]\n    - [NYC, New York]"))
        #expect(try folder.load().scheduler.search.synonyms == Synonyms(groups: [["tee", "T-shirt"], ["NYC", "New York"]]))
        #expect(try ConfigLoader.searchSettings(directory: folder.url.path)?.synonyms.groups == [[["tee"], ["t", "shirt"]], [["nyc"], ["new", "york"]]])
    }

    @Test func postingsKeepEveryFieldUnlessSet() throws {
        #expect(try ConfigFolder().load().scheduler.search.postings == .all)
        for fields in SearchPostingsFields.allCases {
            #expect(try ConfigFolder(scheduler: Self.withSearch("search: { postings: \(fields.rawValue) }")).load().scheduler.search.postings == fields)
        }
    }

    @Test func theRowCacheIsTheDefaultUnlessSet() throws {
        #expect(try ConfigFolder().load().scheduler.search.rowCacheMegabytes == nil)
        for megabytes in [0, 128, 65_536] {
            #expect(try ConfigFolder(scheduler: Self.withSearch("search: { rowCacheMegabytes: \(megabytes) }")).load().scheduler.search.rowCacheMegabytes == megabytes)
        }
    }

    static let broken: [(String, String, String)] = [
        ("search: { rowCacheMegabytes: -1 }", "scheduler.yaml:6:30", "search.rowCacheMegabytes must be between 0 and 65536 (got -1)"),
        ("search: { rowCacheMegabytes: 65537 }", "scheduler.yaml:6:30", "search.rowCacheMegabytes must be between 0 and 65536 (got 65537)"),
        ("search: { rowCacheMegabytes: 128MB }", "scheduler.yaml:6:30", "search.rowCacheMegabytes must be a whole number"),
        ("search: { rowCacheMegabytes: 1.5 }", "scheduler.yaml:6:30", "search.rowCacheMegabytes must be a whole number"),
        ("search: { rowCacheMegabytes: 99999999999999999999999 }", "scheduler.yaml:6:30", "search.rowCacheMegabytes must be a whole number"),
        ("search: { rowCacheMegabyte: 128 }", "scheduler.yaml:6:11", "rowCacheMegabyte"),
        ("search: { postings: names }", "scheduler.yaml:6:21", "search.postings must be one of all, best, off"),
        ("search: { postings: [all] }", "scheduler.yaml:6:21", "search.postings must be one of all, best, off"),
        ("search: { synonyms: [] }", "scheduler.yaml:6:21", "search.synonyms must be a non-empty list of groups"),
        ("search: { synonyms: tee }", "scheduler.yaml:6:21", "search.synonyms must be a non-empty list of groups"),
        ("search: { synonyms: [tee, shirt] }", "scheduler.yaml:6:22", "each group of search.synonyms must be a list"),
        ("search: { synonyms: [[tee]] }", "scheduler.yaml:6:22", "holds 2 to 16 words or phrases (this one 1)"),
        ("search: { synonyms: [[tee, '!?']] }", "scheduler.yaml:6:28", "'!?' must hold 1 to 8 words"),
        ("search: { synonyms: [[tee, a b c d e f g h i]] }", "scheduler.yaml:6:28", "must hold 1 to 8 words"),
        ("search: { synonyms: [[tee, tee]] }", "scheduler.yaml:6:28", "'tee' appears twice"),
        ("search: { synonyms: [[duran duran, band]] }", "scheduler.yaml:6:23", "'duran duran' repeats a word"),
        ("search: { synonyms: [[tee, \(String(repeating: "x", count: 64))]] }", "scheduler.yaml:6:28", "64 letters or more"),
        ("search:\n  synonyms:\n    - [tee, t-shirt]\n    - [T Shirt, maillot]", "scheduler.yaml:9:8", "'T Shirt' is already in the group on line 8"),
        ("search: { typos: { oneTypoFrom: 0 } }", "scheduler.yaml:6:33", "search.typos.oneTypoFrom must be between 1 and 64"),
        ("search: { typos: { twoTyposFrom: 3 } }", "scheduler.yaml:6:18", "twoTyposFrom (3) must be at least oneTypoFrom (5)"),
        ("search: { typos: { disabledOn: [new york] } }", "scheduler.yaml:6:32", "'new york' is not one word"),
        ("search: { typos: { disabledOn: [] } }", "scheduler.yaml:6:32", "search.typos.disabledOn must not be empty"),
        ("search: { typos: { oneTypo: 4 } }", "scheduler.yaml:6:20", "unknown key 'oneTypo'"),
        ("search: { typos: maybe }", "scheduler.yaml:6:18", "search.typos must be true or false"),
        ("search: { synonym: [] }", "scheduler.yaml:6:11", "unknown key 'synonym'"),
        ("search: [typos]", "scheduler.yaml:6:9", "search must be a mapping"),
    ]

    @Test(arguments: broken)
    func aBrokenSectionIsReportedWithItsLocation(section: String, location: String, message: String) throws {
        let folder = try ConfigFolder(scheduler: Self.withSearch(section))
        let problems = folder.problems()
        #expect(problems.contains { $0.description.hasPrefix(location + ":") && $0.description.contains(message) }, "\(problems)")
        #expect(throws: InvalidConfiguration.self) { try ConfigLoader.searchSettings(directory: folder.url.path) }
    }
}
