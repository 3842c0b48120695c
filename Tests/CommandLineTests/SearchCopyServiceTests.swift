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
        #expect(try await eventually { second.logSoFar.contains("made the search copy") }, "\(second.logSoFar)")
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
