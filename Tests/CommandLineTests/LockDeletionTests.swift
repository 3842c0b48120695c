import Foundation
import Testing

/// Deleting the lock files (an operator, a tmp cleaner) never lets two passes, or a pass and a purge, run at once.
@Suite("Lock files deleted under a running service")
struct LockDeletionTests {
    static let token = ["SCHEDULER_ADMIN_TOKEN": "lock-test-token"]

    @Test func duringAPassNeitherRunOnceNorPurgeNorASecondServiceGetsIn() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a WAIT b")
        let service = try await RunningService(setup.config)
        #expect(try await eventually(within: 20) { setup.starts == 1 }, "the service's pass started")

        for suffix in [".lock", ".service.lock"] { try FileManager.default.removeItem(atPath: setup.workspace.path("index.sqlite" + suffix)) }

        let forced = try await setup.run(["run-once", "--force"])
        #expect(forced.status == 3, "run-once beside the pass: \(forced.stderr)")
        #expect(forced.stderr.contains("busy"), "\(forced.stderr)")
        let purge = try await setup.run(["purge", "--domain", "com.test.docs"])
        #expect(purge.status == 3, "purge beside the pass: \(purge.stderr)")
        let second = try await setup.run(["run"])
        #expect(second.status == 3, "a second service: \(second.stderr)")
        #expect(setup.starts == 1, "the service's plugin was neither restarted nor killed")

        try setup.workspace.write("release", "")
        #expect(try await eventually { try await service.searchTotal() == 2 }, "the pass finished with every item")
        let history = try await setup.run(["history", "--json"]).stdout
        #expect(history.contains("reindexed"), "\(history)")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func betweenPassesTheServiceAndACommandStillExcludeEachOther() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a")
        let service = try await RunningService(setup.config, environment: Self.token)
        #expect(try await eventually { try await service.searchTotal() == 1 })

        try FileManager.default.removeItem(atPath: setup.workspace.path("index.sqlite.lock"))
        try setup.setFeed("a WAIT b")
        let (command, _, commandLog) = try SchedulerProcess.startInBackground(["run-once", "--force"] + setup.config)
        #expect(try await eventually(within: 20) { setup.starts == 2 }, "run-once's plugin started")

        // The service, woken, finds run-once's lock: it skips, and its plugin does not start beside the other.
        #expect(try await service.request("/sources/docs/reindex", method: "POST", token: "lock-test-token").status == 202)
        #expect(try await eventually(within: 20) { service.logSoFar.contains("pass skipped until the next tick") }, "\(service.logSoFar)")
        #expect(setup.starts == 2)

        try setup.workspace.write("release", "")
        #expect(await command.exited() == 0, "\(commandLog.text())")
        #expect(try await service.searchTotal() == 2)
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}
