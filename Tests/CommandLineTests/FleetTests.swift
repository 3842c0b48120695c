import Foundation
import ProcessSupport
import StoreSupport
import Testing

/// The fleet program (`scheduler-bench --fleet`) in short: three replicas on one PostgreSQL, 200 units due at once,
/// ten replicas killed and restarted while they work and one stopped past its leases. No unit succeeds twice, none
/// is left out, no two live replicas run one unit at once, and every replica stops on SIGTERM.
@Suite("A fleet under chaos")
struct FleetTests {
    @Test func killedRestartedAndStalledReplicasRunEveryUnitOnce() throws {
        let server = try StoreBackend.postgresServer()
        let workspace = try Workspace()
        let bench = SchedulerProcess.executable.deletingLastPathComponent().appendingPathComponent("scheduler-bench")
        let output = Pipe(), errors = Pipe()
        let process = try ChildProcess(
            bench,
            arguments: [
                "--fleet", "\(server)", "--replicas", "3", "--units", "200", "--kills", "10", "--limit", "300", "--json",
                "--work", workspace.url.path, "--scheduler", SchedulerProcess.executable.path,
            ],
            standardOutput: .pipe(output), standardError: .pipe(errors)
        )
        let stdout = Drain(output), stderr = Drain(errors)
        process.waitUntilExit()
        let text = stdout.text(waitingAtMost: 600), problems = stderr.text()
        #expect(process.terminationStatus == 0, "\(problems)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)\n\(problems)")
        #expect(report["succeeded"] as? Int == 200, "\(report)")
        #expect(report["duplicates"] as? Int == 0, "\(report)")
        #expect(report["missing"] as? Int == 0, "\(report)")
        #expect(report["overlaps"] as? Int == 0, "\(report)")
        #expect(report["hung"] as? Int == 0, "\(report)\n\(problems)")
        #expect(report["kills"] as? Int == 10 && report["stalls"] as? Int == 1, "\(report)")
        #expect((report["pluginRunsByReplica"] as? [String: Int])?.values.reduce(0, +) ?? 0 >= 200, "\(report)")
    }
}
