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

        // Its lock file deleted (a tmp cleaner), the service still holds the lock's socket: the import sees it.
        try FileManager.default.removeItem(atPath: setup.workspace.path("index.sqlite.service.lock"))
        let unlinked = try await SchedulerProcess.run(["index", "import", "-"] + setup.config, input: Self.items(71...80))
        #expect(unlinked.stdout.contains("the search postings are left to the service serving this index"), "\(unlinked.stdout)")
        #expect(!FileManager.default.fileExists(atPath: setup.workspace.path("index.sqlite.service.lock")), "the import creates no lock file")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    /// `scheduler_searches_without_postings_total` counts the searches the postings did not answer: none once they
    /// are held, every one with `search.postings: off` (each scans rows).
    @Test func theMetricsCountTheSearchesThatWentWithoutThePostings() async throws {
        let setup = try SourceWorkspace(gate: false)
        let imported = try await SchedulerProcess.run(["index", "import", "-"] + setup.config, input: Self.items(1...60))
        #expect(imported.status == 0, "\(imported.stderr)")
        func without(_ service: RunningService) async throws -> Int? {
            let lines = try await service.request("/metrics").body.split(separator: "\n")
            return lines.first { $0.hasPrefix("scheduler_searches_without_postings_total ") }.flatMap { Int($0.split(separator: " ")[1]) }
        }

        let kept = try await RunningService(setup.config)
        #expect(try await eventually { kept.logSoFar.contains("read the saved search postings") }, "\(kept.logSoFar)")
        #expect(try await without(kept) == 0)
        for query in ["gazelle", "gaz", "gazelle 7", "gazele"] { _ = try await kept.searchTotal(query: query) }
        #expect(try await without(kept) == 0, "the postings answered")
        #expect(await kept.terminate() == 0, "\(kept.log)")

        let config = try String(contentsOfFile: setup.workspace.path("scheduler.yaml"), encoding: .utf8)
        try setup.workspace.write("scheduler.yaml", config + "search: { postings: off }\n")
        let off = try await RunningService(setup.config)
        for query in ["gazelle", "gaz", "gazelle 7", "gazele"] { #expect(try await off.searchTotal(query: query) > 0) }
        let metrics = try await off.request("/metrics").body
        #expect(try await without(off) == 4, "each search scanned rows: \(metrics)")
        #expect(await off.terminate() == 0, "\(off.log)")
    }

    /// A small import builds no postings of its own (the service's next start would anyway), and catches up a saved
    /// file without saving it again when that is not due.
    @Test func aSmallImportBuildsNoneAndCatchesUpASavedFile() async throws {
        let workspace = try Workspace()
        let bulk = try await SchedulerProcess.run(["index", "import", "-", "--no-search-postings"] + workspace.database, input: Self.items(1...60))
        #expect(bulk.status == 0, "\(bulk.stderr)")
        let small = try await SchedulerProcess.run(["index", "import", "-"] + workspace.database, input: Self.items(61...70))
        #expect(small.stdout.contains("left to the service's next start: this import is less than half the index"), "\(small.stdout)")
        #expect(!FileManager.default.fileExists(atPath: workspace.path("index.sqlite.postings")))

        let large = try await SchedulerProcess.run(["index", "import", "-"] + workspace.database, input: Self.items(71...200))
        #expect(large.stdout.contains("saved the search postings beside the index in "), "\(large.stdout)")
        let again = try await SchedulerProcess.run(["index", "import", "-"] + workspace.database, input: Self.items(201...210))
        #expect(again.stdout.contains("the saved search postings are recent enough"), "\(again.stdout)")
    }

    /// `--database` alone keeps the setting of the file a service saved (`best` here), instead of replacing it with
    /// one that service would refuse.
    @Test func anImportGivenADatabaseAloneKeepsTheSavedFilesSetting() async throws {
        let setup = try SourceWorkspace(gate: false, extraLines: "search: { postings: best }")
        let configured = try await SchedulerProcess.run(["index", "import", "-"] + setup.config, input: Self.items(1...60))
        #expect(configured.stdout.contains("saved the search postings beside the index in "), "\(configured.stdout)")
        let postings = setup.workspace.path("index.sqlite.postings")
        let alone = try await SchedulerProcess.run(["index", "import", "-", "--database", setup.workspace.path("index.sqlite")], input: Self.items(61...100))
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stdout.contains("recent enough"), "the best fields' file was read and caught up: \(alone.stdout) \(alone.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: postings))[12] == 0, "the file still keeps the best fields' words")
    }

    /// A FIFO where the saved file would be is neither waited on nor used.
    @Test func aFIFOInPlaceOfTheSavedFileIsNotWaitedOn() async throws {
        let workspace = try Workspace()
        #expect(mkfifo(workspace.path("index.sqlite.postings"), 0o644) == 0)
        let imported = try await SchedulerProcess.run(["index", "import", "-"] + workspace.database, input: Self.items(1...20))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("not a regular file"), "\(imported.stderr)")
    }

    /// A save that fails leaves the items in, exits 0 and says so.
    @Test func aFailedSaveIsAWarningAndTheItemsStay() async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.path("index.sqlite.postings"), withIntermediateDirectories: true)
        try workspace.write("index.sqlite.postings/keep", "")
        let imported = try await SchedulerProcess.run(["index", "import", "-"] + workspace.database, input: Self.items(1...20))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("imported 20 items, rejected 0 lines\n"), "\(imported.stdout)")
        #expect(imported.stderr.contains("warning: the search postings could not be saved"), "\(imported.stderr)")
        let search = try await SchedulerProcess.run(["search", "gazelle"] + workspace.database)
        #expect(search.stdout.hasPrefix("20 matches"), "\(search.stdout)")
    }

    /// `--database` alone reads no config: a broken one in the folder the import runs in changes nothing.
    @Test func anImportGivenADatabaseAloneReadsNoConfig() async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.path("config"), withIntermediateDirectories: true)
        try workspace.write("config/scheduler.yaml", "search: { postings: [\n")
        let imported = try await SchedulerProcess.run(
            ["index", "import", "-"] + workspace.database, input: Self.items(1...20), directory: workspace.url
        )
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("saved the search postings beside the index in "), "\(imported.stdout)")
        let configured = try await SchedulerProcess.run(
            ["index", "import", "-", "--config", "config"] + workspace.database, input: Self.items(1...20), directory: workspace.url
        )
        #expect(configured.status != 0 && configured.stderr.contains("config/scheduler.yaml:2:1: YAML syntax"), "a config named is read: \(configured.stderr)")
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
