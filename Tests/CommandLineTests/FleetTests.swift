import Foundation
import ProcessSupport
import StoreSupport
import Testing

/// The fleet program (`scheduler-bench --fleet`) in short: three replicas on one PostgreSQL, 200 units due at once,
/// ten replicas killed and restarted while they work, one stopped past its leases, every database session ended once
/// mid-run, one replica's clock 5 minutes ahead (`--clock-offset`). No unit succeeds twice, none is left out, no two
/// live replicas run one unit at once, and every replica stops on SIGTERM.
///
/// It keeps both cores busy for a minute or two, and the tests beside it missed their own timeouts on a 2-core CI
/// machine: it runs alone, after the suite, when `SCHEDULER_FLEET_TEST` is set (`.ci/run` sets it; docs/operating.md).
@Suite("A fleet under chaos", .enabled(if: ProcessInfo.processInfo.environment["SCHEDULER_FLEET_TEST"] != nil, "runs alone: SCHEDULER_FLEET_TEST=1"))
struct FleetTests {
    @Test func killedRestartedAndStalledReplicasRunEveryUnitOnce() async throws {
        let server = try StoreBackend.postgresServer()
        let workspace = try Workspace()
        let bench = SchedulerProcess.executable.deletingLastPathComponent().appendingPathComponent("scheduler-bench")
        // At the lowest priority (its replicas and their programs inherit it): the fleet keeps both cores busy for
        // a while, and must not starve the tests running beside it; it finishes when they leave it room.
        let arguments = [
            "-n", "19", bench.path, "--fleet", "\(server)", "--replicas", "3", "--units", "200", "--kills", "10", "--cut-connections", "1", "--skew", "300", "--limit", "900", "--json",
            "--work", workspace.url.path, "--scheduler", SchedulerProcess.executable.path,
        ]
        // The program runs for tens of seconds: waited for on a thread of its own, not one of the test pool's.
        let (status, text, problems) = try await onOwnThread {
            let output = Pipe(), errors = Pipe()
            let process = try ChildProcess(
                URL(fileURLWithPath: "/usr/bin/nice"), arguments: arguments, standardOutput: .pipe(output), standardError: .pipe(errors)
            )
            let stdout = Drain(output), stderr = Drain(errors)
            process.waitUntilExit()
            return (process.terminationStatus, stdout.text(waitingAtMost: 1200), stderr.text())
        }
        #expect(status == 0, "\(problems)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)\n\(problems)")
        #expect(report["succeeded"] as? Int == 200, "\(report)")
        #expect(report["duplicates"] as? Int == 0, "\(report)")
        #expect(report["missing"] as? Int == 0, "\(report)")
        #expect(report["overlaps"] as? Int == 0, "\(report)")
        #expect(report["hung"] as? Int == 0, "\(report)\n\(problems)")
        #expect(report["kills"] as? Int == 10 && report["stalls"] as? Int == 1 && report["connectionCuts"] as? Int == 1, "\(report)")
        // The replica whose clock ran 5 minutes ahead took its share, and wrote its times by its own clock.
        #expect(report["latestFinishAhead"] as? Double ?? 0 > 200, "\(report)")
        #expect((report["pluginRunsByReplica"] as? [String: Int])?.values.reduce(0, +) ?? 0 >= 200, "\(report)")
    }
}
