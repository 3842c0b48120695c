import Foundation
import Store
import PostgresStore
import Testing

/// `scheduler run` on PostgreSQL keeps a copy of the index on its machine (`var/postgres…search.sqlite`) and answers
/// searches from it; what one replica indexes, another finds at once.
@Suite("The service's search copy")
struct SearchCopyServiceTests {
    static let token = ["SCHEDULER_ADMIN_TOKEN": "copy-test-token"]

    /// Whether `replica` made its search copy from the store or fetched it from another replica.
    static func hasItsCopy(_ replica: RunningService) -> Bool {
        replica.logSoFar.contains("made the search copy") || replica.logSoFar.contains("fetched the search copy")
    }

    @Test func aReplicaFindsWhatAnotherIndexedThroughItsCopy() async throws {
        let (setup, _) = try await SourceWorkspace.onPostgres()
        try setup.setFeed("a b")
        let first = try await RunningService(setup.config + ["--replica-id", "r1"], environment: Self.token)
        #expect(try await eventually { try await first.searchTotal() == 2 })
        let second = try await RunningService(setup.config + ["--replica-id", "r2"], environment: Self.token)
        #expect(try await eventually { Self.hasItsCopy(second) }, "\(second.logSoFar)")
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

    /// Keys on a shared store: a key made on one replica works on the other within seconds, through the other's
    /// search copy, with the items only some may find kept from a token without their group; revoked on one, it stops
    /// on the other within seconds.
    @Test func aKeyMadeOnOneReplicaWorksOnTheOtherAndARevokeStopsItThere() async throws {
        let (setup, _) = try await SourceWorkspace.onPostgres()
        try setup.editConfig(replacing: "service: { tick: 1h, listen: 127.0.0.1:0 }", with: "service: { tick: 1h, listen: 127.0.0.1:0 }\nsearch: { access: keys }")
        try setup.writeScript("""
            #!/bin/sh
            printf '%s\\n' '{"uniqueIdentifier":"open","domainIdentifier":"com.test.docs","title":"Doc open"}'
            printf '%s\\n' '{"uniqueIdentifier":"staff","domainIdentifier":"com.test.docs","title":"Doc staff","access":["staff"]}'
            """)
        let first = try await RunningService(setup.config + ["--replica-id", "r1"], environment: SearchKeyTests.environment)
        let second = try await RunningService(setup.config + ["--replica-id", "r2"], environment: SearchKeyTests.environment)
        #expect(try await eventually { Self.hasItsCopy(second) }, "\(second.logSoFar)")
        let made = try await first.request("/keys", method: "POST", token: SearchKeyTests.adminToken, body: #"{"name":"docs","domains":["com.test"]}"#)
        let key = try #require(try JSONSerialization.jsonObject(with: Data(made.body.utf8)) as? [String: Any], "\(made)")
        let (secret, uid) = (try #require(key["key"] as? String), try #require(key["uid"] as? String))
        let staff = try await SearchKeyTests.mint(key: secret, claims: ["keyUid": uid, "exp": Date().timeIntervalSince1970 + 600, "groups": ["staff"]])
        #expect(try await eventually { try await SearchKeyTests.identifiers(second, token: secret) == ["open"] }, "\(second.logSoFar)")
        #expect(try await SearchKeyTests.identifiers(second, token: staff) == ["open", "staff"], "a token of the group finds it, through the copy")
        #expect(try await SearchKeyTests.identifiers(first, token: staff) == ["open", "staff"])
        #expect(try await first.request("/keys/\(uid)", method: "DELETE", token: SearchKeyTests.adminToken).status == 200)
        #expect(try await eventually(within: 10) { try await second.request("/search?q=doc", token: secret).status == 401 }, "revoked everywhere within seconds")
        #expect(await first.terminate() == 0, "\(first.log)")
        #expect(await second.terminate() == 0, "\(second.log)")
    }

    /// A new replica starts its copy from another's (`GET /search-copy`, the admin token they share) instead of reading
    /// every item from PostgreSQL, postings included, and follows the store from the commit it holds; `/readyz` says it
    /// is ready once it has it. The endpoint itself is behind the admin token.
    @Test func aNewReplicaFetchesItsCopyFromAnotherAndFollowsTheStoreFromThere() async throws {
        let (setup, _) = try await SourceWorkspace.onPostgres()
        try setup.setFeed("a b c")
        let first = try await RunningService(setup.config + ["--replica-id", "r1"], environment: Self.token)
        #expect(try await eventually { first.logSoFar.contains("offers its search copy") && first.logSoFar.contains("saved the search postings") }, "\(first.logSoFar)")
        #expect(first.logSoFar.contains("a loopback address that only replicas on this host reach"), "listening on 127.0.0.1, it says so")
        #expect(try await first.request("/search-copy").status == 401)
        #expect(try await first.request("/search-copy", token: "wrong").status == 401)

        let second = try await RunningService(setup.config + ["--replica-id", "r2"], environment: Self.token)
        #expect(try await eventually { second.logSoFar.contains("fetched the search copy from replica r1") }, "\(second.logSoFar)")
        #expect(try await eventually { try await second.request("/readyz").status == 200 }, "\(second.logSoFar)")
        #expect(try await second.searchTotal() == 3)
        #expect(try await eventually { second.logSoFar.contains("read the saved search postings") }, "the postings came with the copy: \(second.logSoFar)")
        #expect(!second.logSoFar.contains("made the search copy") && !second.logSoFar.contains("built the search postings"), "\(second.logSoFar)")

        // What the first replica commits next, the second finds: it follows the store from the fetched copy's commit.
        try setup.setFeed("a b c d")
        #expect(try await first.request("/sources/docs/reindex", method: "POST", token: "copy-test-token").status == 202)
        #expect(try await eventually { try await second.searchTotal() == 4 }, "\(second.logSoFar)")
        #expect(await first.terminate() == 0, "\(first.log)")
        #expect(await second.terminate() == 0, "\(second.log)")
        let files = try FileManager.default.contentsOfDirectory(atPath: setup.workspace.path("var"))
        #expect(!files.contains { $0.contains(".snapshot-") || $0.hasSuffix(".fetching") }, "nothing left of the transfer: \(files)")
    }

    /// A replica on the roll that does not answer (gone without leaving it, its heartbeat still fresh) is passed over:
    /// the new replica fetches the copy of the next.
    @Test func aPeerThatDoesNotAnswerIsPassedOverForTheNext() async throws {
        let (setup, _) = try await SourceWorkspace.onPostgres()
        try setup.setFeed("a b c")
        let first = try await RunningService(setup.config + ["--replica-id", "r1"], environment: Self.token)
        #expect(try await eventually { first.logSoFar.contains("offers its search copy") }, "\(first.logSoFar)")
        let config = try String(contentsOfFile: setup.workspace.path("scheduler.yaml"), encoding: .utf8)
        let url = try #require(config.firstMatch(of: /url: "([^"]+)"/)?.1)
        var location = try PostgresLocation.parse(url: String(url)).get()
        location.tls = .disable
        // Port 1: nothing listens there. A heartbeat fresher than the first replica's puts it first on the list.
        try await location.execute(statementWrittenByThisProgram: """
            INSERT INTO replica (id, config_fingerprint, started_at, heartbeat_at, search_copy_url)
            VALUES ('gone', 'f', extract(epoch from clock_timestamp()), extract(epoch from clock_timestamp()) + 20, 'http://127.0.0.1:1')
            """)
        let second = try await RunningService(setup.config + ["--replica-id", "r2"], environment: Self.token)
        #expect(try await eventually { second.logSoFar.contains("fetched the search copy from replica r1") }, "\(second.logSoFar)")
        #expect(second.logSoFar.contains("could not fetch the search copy of replica gone (http://127.0.0.1:1)"), "\(second.logSoFar)")
        #expect(try await second.searchTotal() == 3)
        #expect(await first.terminate() == 0, "\(first.log)")
        #expect(await second.terminate() == 0, "\(second.log)")
    }

    /// Without the admin token no replica offers or fetches a copy: each makes its own from the store, and both are
    /// ready.
    @Test func withoutTheAdminTokenEachReplicaMakesItsOwnCopy() async throws {
        let (setup, _) = try await SourceWorkspace.onPostgres()
        try setup.setFeed("a b")
        let first = try await RunningService(setup.config + ["--replica-id", "r1"])
        #expect(try await eventually { first.logSoFar.contains("made the search copy") }, "\(first.logSoFar)")
        let second = try await RunningService(setup.config + ["--replica-id", "r2"])
        #expect(try await eventually { second.logSoFar.contains("made the search copy") }, "\(second.logSoFar)")
        #expect(try await second.request("/readyz").status == 200)
        #expect(try await second.searchTotal() == 2)
        #expect(await first.terminate() == 0 && second.logSoFar.contains("fetched") == false, "\(first.log)")
        #expect(await second.terminate() == 0, "\(second.log)")
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
