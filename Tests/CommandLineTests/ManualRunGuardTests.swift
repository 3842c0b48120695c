import Foundation
import ProcessSupport
import Testing

/// Runs an operator asks for are guarded as scheduled ones are: only `--force` (a full run) lifts the delete guard,
/// and an incremental run that has nothing to go on from is refused with a sentence instead of being dropped.
@Suite("Manual runs and the delete guard")
struct ManualRunGuardTests {
    /// A workspace whose source holds ten items after a full run; its incremental runs delete nine of them.
    func workspace() async throws -> SourceWorkspace {
        let setup = try SourceWorkspace(extraLines: "    incremental: hourly\n    maxDeleteRatio: 0.5")
        try setup.writeScript("""
            #!/bin/sh
            if [ "$SCHEDULER_SYNC_MODE" = incremental ]; then
                for id in 1 2 3 4 5 6 7 8 9; do printf '{"delete": "d%s"}\\n' $id; done
                echo '{"state": 2}'
                exit 0
            fi
            for id in 0 1 2 3 4 5 6 7 8 9; do
                printf '{"uniqueIdentifier":"d%s","domainIdentifier":"%s","title":"Doc %s"}\\n' $id "$SCHEDULER_DOMAIN" $id
            done
            echo '{"state": 1}'
            """)
        return setup
    }

    @Test func aManualIncrementalRunFromTheCommandLineIsRefusedPastMaxDeleteRatio() async throws {
        let setup = try await workspace()
        #expect(try await setup.run(["run-once"]).status == 0)
        #expect(try await setup.indexed().count == 10)
        let incremental = try await setup.run(["run-once", "--incremental", "--json"])
        #expect(incremental.status == 1, "the run fails: \(incremental.stdout) \(incremental.stderr)")
        #expect(incremental.stdout.contains("maxDeleteRatio"), "\(incremental.stdout)")
        #expect(try await setup.indexed().count == 10, "nothing was deleted")
        // Only --force lifts the guard, and it runs a full sync.
        #expect(try await setup.run(["run-once", "--force", "--incremental"]).status != 0, "--force and --incremental stay exclusive")
    }

    @Test func aManualIncrementalRunThroughTheAdminAPIIsRefusedPastMaxDeleteRatio() async throws {
        let setup = try await workspace()
        let service = try await RunningService(setup.config, environment: ["SCHEDULER_ADMIN_TOKEN": "secret-token"])
        #expect(try await eventually { try await service.searchTotal() == 10 })
        let queued = try await service.request("/sources/docs/reindex?mode=incremental", method: "POST", token: "secret-token")
        #expect(queued.status == 202, "\(queued.body)")
        // The run fails on the guard; the domain keeps its ten items.
        #expect(try await eventually {
            try await service.json("/status")["units"].flatMap { ($0 as? [[String: Any]])?.first?["lastResult"] as? String } == "failed"
        })
        #expect(try await service.searchTotal() == 10)
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func anIncrementalRunOfAUnitWithoutACommittedStateIsRefusedWithASentence() async throws {
        let setup = try await workspace()
        // Its full runs fail: no state is ever committed.
        try setup.writeScript("#!/bin/sh\necho 'the feed is down' >&2\nexit 1\n")
        let service = try await RunningService(setup.config, environment: ["SCHEDULER_ADMIN_TOKEN": "secret-token"])
        #expect(try await eventually {
            try await service.json("/status")["units"].flatMap { ($0 as? [[String: Any]])?.first?["lastResult"] as? String } == "failed"
        })
        let refused = try await service.request("/sources/docs/reindex?mode=incremental", method: "POST", token: "secret-token")
        #expect(refused.status == 409, "\(refused.body)")
        #expect(refused.body.contains("no full run has committed a state") && refused.body.contains("run a full reindex first"), "\(refused.body)")
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}
