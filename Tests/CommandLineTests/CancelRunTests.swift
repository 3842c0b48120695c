import Foundation
import ProcessSupport
import Testing

/// An operator's cancel stops a run within seconds whatever its program is doing: a program that prints an item a
/// second (never filling a batch) is stopped, one that ignores `SIGTERM` is killed after the grace, nothing is
/// committed after the cancel, and the run is recorded `cancelled`.
@Suite("Cancelling a slow program")
struct CancelRunTests {
    @Test(arguments: ["", "trap '' TERM"])
    func aCancelStopsTheProgramWithinSecondsAndCommitsNothingAfter(trap: String) async throws {
        let setup = try SourceWorkspace()
        // An item a second for ten minutes (a test process starved on a busy machine still finds it running); its
        // pid written first, so the test can tell when its group is gone.
        try setup.writeScript("""
            #!/bin/sh
            \(trap)
            echo $$ > program.pid
            i=0
            while [ $i -lt 600 ]; do
                printf '{"uniqueIdentifier":"s%d","domainIdentifier":"%s","title":"Doc %d"}\\n' $i "$SCHEDULER_DOMAIN" $i
                sleep 1
                i=$((i + 1))
            done
            """)
        let service = try await RunningService(setup.config, environment: ["SCHEDULER_ADMIN_TOKEN": "secret-token"])
        let pidFile = setup.workspace.path("program.pid")
        #expect(try await eventually { FileManager.default.fileExists(atPath: pidFile) })
        try await Task.sleep(for: .seconds(2))
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // While it runs: not due as well, and its progress shown (nothing committed yet: no batch is full). Asked
        // until answered: on a busy machine a request may find the store busy (503).
        #expect(try await eventually {
            let unit = (try await service.json("/status")["units"] as? [[String: Any]])?.first
            return unit?["lastResult"] as? String == "running" && unit?["due"] as? Bool == false && unit?["itemsSoFar"] as? Int == 0
        }, "\(service.logSoFar)")
        #expect(try await eventually { try await service.request("/").body.contains("running (started") })
        let cancel = try await service.request("/sources/docs/cancel", method: "POST", token: "secret-token")
        #expect(cancel.status == 202, "\(cancel.body)")
        let unit = { () async throws -> [String: Any]? in (try await service.json("/status")["units"] as? [[String: Any]])?.first }
        #expect(try await eventually(within: 120) { try await unit()?["lastResult"] as? String == "cancelled" }, "\(service.logSoFar)")
        #expect(kill(pid, 0) != 0, "the program's process is gone, long before its ten minutes")
        #expect((try await unit()?["lastError"] as? String)?.contains("cancelled by") == true)
        #expect(try await service.searchTotal() == 0, "no batch was committed after the cancel (none was full before it)")
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}
