import Foundation
import ProcessSupport
import Testing

/// Two posts published at one URL: the first (in path order) is indexed, the later one rejected, and both files are
/// named where an operator looks: the run's log line, `scheduler history`, and the unit's page.
@Suite("A URL collision names both files")
struct CollisionReportTests {
    @Test func theRejectionNamesBothFilesInTheLogTheHistoryAndTheUnitPage() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a")
        try setup.addBlogSource(options: "{ directory: blog, flavor: hugo }")
        try setup.workspace.write("blog/a-first.md", "---\ntitle: Report one\nslug: report\n---\nText.\n")
        try setup.workspace.write("blog/b-second.md", "---\ntitle: Report two\nslug: report\n---\nText.\n")
        let run = try await setup.run(["run-once", "--source", "blog"])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("b-second.md") && run.stderr.contains("as a-first.md is (read first)"), "the log line names both: \(run.stderr)")
        let history = try await setup.run(["history", "--source", "blog"])
        #expect(history.stdout.contains("1 rejected"), "\(history.stdout)")
        #expect(history.stdout.contains("rejected b-second.md: published at 'report', as a-first.md is (read first)"), "\(history.stdout)")

        let service = try await RunningService(setup.config, environment: ["SCHEDULER_ADMIN_TOKEN": "secret-token"])
        let page = try await service.request("/units/blog").body
        _ = await service.terminate()
        #expect(page.contains("rejected b-second.md: published at &#39;report&#39;, as a-first.md is (read first)"), "\(page)")
    }
}
