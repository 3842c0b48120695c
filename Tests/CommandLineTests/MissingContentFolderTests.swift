import Foundation
import ProcessSupport
import Testing

/// A content folder that is not there yet (a volume not mounted, a git-sync sidecar still cloning) fails its unit,
/// not the configuration: the other sources run, the service starts and serves search, and the unit runs once the
/// folder appears.
@Suite("A missing content folder")
struct MissingContentFolderTests {
    /// The command source `docs` (three items) beside a `posts` source whose folder `blog` does not exist.
    func workspace() throws -> SourceWorkspace {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c")
        try setup.addBlogSource(options: "{ directory: blog }")
        return setup
    }

    func writePost(_ setup: SourceWorkspace) throws {
        try FileManager.default.createDirectory(atPath: setup.workspace.path("blog"), withIntermediateDirectories: true)
        try setup.workspace.write("blog/2026-01-05-lighthouse.md", "---\ntitle: Doc lighthouse keeping\n---\nHow lamps are kept.\n")
    }

    @Test func validateWarnsAndRunOnceRunsTheOtherUnitsThenExitsOne() async throws {
        let setup = try workspace()
        let validate = try await setup.run(["validate"])
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stderr.contains("warning:") && validate.stderr.contains("blog does not exist (yet)"), "\(validate.stderr)")
        // Each run at an instant of its own, so that a slow machine cannot let the backoff run out between them.
        let start = Date()
        let instant = { (seconds: Double) in ISO8601DateFormatter().string(from: start.addingTimeInterval(seconds)) }
        let run = try await setup.run(["run-once", "--at", instant(0)])
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("blog  failed") && run.stdout.contains("cannot open the folder"), "\(run.stdout)")
        #expect(try await setup.indexed() == ["a", "b", "c"], "the other source ran")
        // Backing off meanwhile: not retried 10 s later.
        let soon = try await setup.run(["run-once", "--source", "blog", "--at", instant(10)])
        #expect(soon.status == 0 && soon.stdout.contains("backing off"), "\(soon.stdout) \(soon.stderr)")
        // Once the folder is there, the retry its backoff brings (a minute, ±20 %) succeeds, unforced.
        try writePost(setup)
        let later = instant(5 * 60)
        let again = try await setup.run(["run-once", "--source", "blog", "--at", later])
        #expect(again.status == 0 && again.stdout.contains("blog  reindexed"), "\(again.stdout) \(again.stderr)")
        #expect(try await setup.indexed().count == 4)
    }

    @Test func theServiceStartsServesSearchAndRunsTheUnitOnceTheFolderAppears() async throws {
        let setup = try workspace()
        let service = try await RunningService(setup.config, environment: ["SCHEDULER_ADMIN_TOKEN": "secret-token"])
        #expect(try await eventually { try await service.searchTotal() == 3 }, "search is served, the other source ran")
        let blog = { () async throws -> [String: Any]? in
            (try await service.json("/status")["units"] as? [[String: Any]])?.first { $0["unit"] as? String == "blog" }
        }
        #expect(try await eventually { try await blog()?["lastResult"] as? String == "failed" })
        #expect((try await blog()?["lastError"] as? String)?.contains("blog") == true, "the error names the folder")
        try writePost(setup)
        #expect(try await service.request("/sources/blog/reindex", method: "POST", token: "secret-token").status == 202)
        #expect(try await eventually { try await service.searchTotal() == 4 })
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}
