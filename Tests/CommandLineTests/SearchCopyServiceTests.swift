import Foundation
import Testing

/// `scheduler run` on PostgreSQL keeps a copy of the index on its machine (`var/postgres…search.sqlite`) and answers
/// searches from it; what one replica indexes, another finds at once.
@Suite("The service's search copy")
struct SearchCopyServiceTests {
    static let token = ["SCHEDULER_ADMIN_TOKEN": "copy-test-token"]

    @Test func aReplicaFindsWhatAnotherIndexedThroughItsCopy() async throws {
        let (setup, _) = try await SourceWorkspace.onPostgres()
        try setup.setFeed("a b")
        let first = try await RunningService(setup.config + ["--replica-id", "r1"], environment: Self.token)
        #expect(try await eventually { try await first.searchTotal() == 2 })
        let second = try await RunningService(setup.config + ["--replica-id", "r2"], environment: Self.token)
        #expect(try await eventually { second.logSoFar.contains("made the search copy") }, "\(second.logSoFar)")
        for replica in ["r1", "r2"] {
            #expect(FileManager.default.fileExists(atPath: setup.workspace.path("var/postgres-\(replica).search.sqlite")), "\(replica)'s copy")
        }

        // A forced run on the first replica; the second finds its items as soon as the run has committed them.
        try setup.setFeed("a b c")
        #expect(try await first.request("/sources/docs/reindex", method: "POST", token: "copy-test-token").status == 202)
        #expect(try await eventually { try await second.searchTotal() == 3 }, "\(second.logSoFar)")
        #expect(await first.terminate() == 0, "\(first.log)")
        #expect(await second.terminate() == 0, "\(second.log)")
        #expect(!second.log.contains("search copy failed") && !second.log.contains("could not follow"), "\(second.log)")
    }

    @Test func searchCopyFalseKeepsNone() async throws {
        let (setup, _) = try await SourceWorkspace.onPostgres(settings: ", searchCopy: false")
        try setup.setFeed("a")
        let service = try await RunningService(setup.config)
        #expect(try await eventually { try await service.searchTotal() == 1 })
        #expect(await service.terminate() == 0, "\(service.log)")
        let files = try FileManager.default.contentsOfDirectory(atPath: setup.workspace.path("var"))
        #expect(!files.contains { $0.contains("search") }, "\(files)")
        #expect(!service.log.contains("search copy"), "\(service.log)")
    }
}
