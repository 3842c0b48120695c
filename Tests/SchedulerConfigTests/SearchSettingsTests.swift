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

    static let broken: [(String, String, String)] = [
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
