import Foundation
import ProcessSupport
import Testing

/// A gate turned off by mistake costs search for as long as the mistake lasts, not a reindex: through the real binary,
/// the purge is restorable for `purgeGrace`, and fixing the config brings the items back without running the plugin.
@Suite("Undoing a purge within its grace")
struct PurgeGraceTests {
    /// A rollout typed as 0 instead of 100: a valid config whose gate is off.
    static let typo = "gates:\n  docs_gate: { enabled: true, rollout: 0 }\n"

    @Test func theServiceRestoresTheItemsOfAGateTurnedOnAgainWithoutARun() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c")
        let service = try await RunningService(setup.config)
        #expect(try await eventually { try await service.searchTotal() == 3 })
        let lastSuccess = try await eventually { try await Self.unit(of: service)?["lastSuccess"] != nil }
        #expect(lastSuccess)
        let before = try await Self.unit(of: service)?["lastSuccess"] as? String
        let starts = setup.starts

        try setup.workspace.write("gates.yaml", Self.typo)
        #expect(try await eventually { try await service.searchTotal() == 0 }, "gone from search within seconds")
        #expect(try await eventually {
            let purges = try await service.json("/status")["pendingPurges"] as? [[String: Any]]
            return purges?.first?["restorableUntil"] as? String != nil
        })
        #expect(try await eventually { try await service.request("/metrics").body.contains("scheduler_purges_restorable 1") })
        #expect(try await service.request("/").body.contains("restorable until"))
        #expect(try await service.request("/items/a").status == 404, "a purged item is not served")

        try setup.setGate(on: true)
        #expect(try await eventually { try await service.searchTotal() == 3 }, "back within seconds")
        #expect(setup.starts == starts, "without running the plugin")
        #expect(try await Self.unit(of: service)?["lastSuccess"] as? String == before, "its last success as it was")
        let metrics = try await eventually { try await service.request("/metrics").body.contains("scheduler_purges_restorable 0") }
        #expect(metrics)
        #expect(try await service.request("/metrics").body.contains(#"scheduler_runs_total{source="docs",result="restored",mode="full"} 1"#))
        #expect(try await eventually { service.logSoFar.contains("restored") }, "\(service.logSoFar)")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func validateListsWhatAFixedConfigRestoresAndRunOnceRestoresIt() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c")
        #expect(try await setup.run(["run-once"]).status == 0)
        let starts = setup.starts
        try setup.workspace.write("gates.yaml", Self.typo)
        let off = try await setup.run(["run-once"])
        #expect(off.status == 0)
        #expect(off.stdout.contains("docs  purged: 3 deleted") && off.stdout.contains("restorable until"), "\(off.stdout)")
        #expect(try await setup.indexed().isEmpty)
        let status = try await setup.run(["status"])
        #expect(status.stdout.contains("purge of com.test.docs") && status.stdout.contains("restorable until"), "\(status.stdout)")

        try setup.setGate(on: true)
        let validate = try await setup.run(["validate", "--json"])
        #expect(validate.status == 0, "\(validate.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(validate.stdout.utf8)) as? [String: Any])
        #expect(report["wouldRestore"] as? [String] == ["would restore docs (com.test.docs): its gate is on again within the grace of its purge"])
        #expect(report["wouldPurge"] as? [String] == [])
        let dryRun = try await setup.run(["run-once", "--dry-run"])
        #expect(dryRun.stdout.contains("docs  would-restore"), "\(dryRun.stdout)")

        let on = try await setup.run(["run-once"])
        #expect(on.status == 0)
        #expect(on.stdout.contains("docs  restored (the gate is on again within the purge's grace: restored without a run (3 items))"), "\(on.stdout)")
        #expect(try await setup.indexed() == ["a", "b", "c"])
        #expect(setup.starts == starts, "the plugin did not run")
        let history = try await setup.run(["history"])
        #expect(history.stdout.contains("restored"), "\(history.stdout)")
    }

    /// The unit `docs` as `/status` shows it.
    static func unit(of service: RunningService) async throws -> [String: Any]? {
        (try await service.json("/status")["units"] as? [[String: Any]])?.first
    }
}
