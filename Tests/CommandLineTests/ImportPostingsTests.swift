import Foundation
import Testing

/// `scheduler index import` leaves the search postings saved beside an SQLite index, so that the service's next start
/// reads them instead of building them; it leaves them to a service that serves the index.
@Suite("scheduler index import and the search postings")
struct ImportPostingsTests {
    static func items(_ range: ClosedRange<Int>) -> Data {
        Data(range.map { itemLine("i\($0)", title: "Gazelle \($0)") }.joined(separator: "\n").utf8)
    }

    @Test func theServiceStartsOnThePostingsAnImportSaved() async throws {
        let setup = try SourceWorkspace(gate: false)
        let imported = try await SchedulerProcess.run(["index", "import", "-"] + setup.config, input: Self.items(1...60))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("saved the search postings beside the index in "), "\(imported.stdout)")
        #expect(FileManager.default.fileExists(atPath: setup.workspace.path("index.sqlite.postings")))

        let service = try await RunningService(setup.config)
        #expect(try await eventually { service.logSoFar.contains("read the saved search postings") }, "\(service.logSoFar)")
        #expect(!service.logSoFar.contains("built the search postings"), "\(service.logSoFar)")
        #expect(try await service.searchTotal(query: "gazelle") == 60)

        let more = try await SchedulerProcess.run(["index", "import", "-"] + setup.config, input: Self.items(61...70))
        #expect(more.status == 0, "\(more.stderr)")
        #expect(more.stdout.contains("the search postings are left to the service serving this index"), "\(more.stdout)")
        #expect(try await eventually { try await service.searchTotal(query: "gazelle") == 70 }, "\(service.logSoFar)")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test(arguments: [(["--no-search-postings"], ""), ([], "search: { postings: off }")])
    func anImportToldNotToSavesNoPostings(flags: [String], searchSection: String) async throws {
        let setup = try SourceWorkspace(gate: false, extraLines: searchSection)
        let imported = try await SchedulerProcess.run(["index", "import", "-"] + flags + setup.config, input: Self.items(1...300))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "imported 300 items, rejected 0 lines\n")
        #expect(!FileManager.default.fileExists(atPath: setup.workspace.path("index.sqlite.postings")))
    }
}
