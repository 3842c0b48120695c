import Foundation
import ProcessSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `scheduler-bench` stopped while it measures a service: the `scheduler run` it started stops with it, so the next
/// bench (or service) on that database is not refused by a service lock an orphan holds.
struct BenchmarkStopTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aStoppedBenchStopsTheServiceItStarted(signal: Int32) async throws {
        // Its loads keep the bench measuring until it is stopped (without it, the bench ends on its own in a second).
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk"), "this test needs wrk: apt-get install -y wrk")
        let workspace = try Workspace()
        try workspace.write("items.ndjson", (1...3).map { itemLine("i\($0)", title: "Livraison \($0)") }.joined(separator: "\n") + "\n")
        #expect(try await SchedulerProcess.run(["index", "import", workspace.path("items.ndjson")] + workspace.database).status == 0)
        let bench = SchedulerProcess.executable.deletingLastPathComponent().appendingPathComponent("scheduler-bench")
        // Long loads: the bench is still measuring when it is stopped.
        var environment = ProcessInfo.processInfo.environment
        environment["BENCH_LOAD_SECONDS"] = "600"
        let (output, errors) = (Pipe(), Pipe())
        let process = try ChildProcess(
            bench, arguments: ["--work", workspace.path("bench"), "--scheduler", SchedulerProcess.executable.path, "--http", workspace.path("index.sqlite")],
            environment: environment, standardOutput: .pipe(output), standardError: .pipe(errors)
        )
        let (printed, problems) = (Drain(output), Drain(errors))
        // Stopped once it measures: its service listens and holds its postings.
        let started = try await onOwnThread { () -> Int32? in
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, !printed.text(waitingAtMost: 0).contains("held its search postings") { usleep(20_000) }
            return childScheduler(of: process.processIdentifier)
        }
        let service = try #require(started, "the bench started no `scheduler run` that served within 60 s: \(problems.text(waitingAtMost: 0))")

        process.send(signal)
        let status = await process.exited()
        // A service left running is stopped here, so that the failure costs the machine nothing.
        let outlived = kill(service, 0) == 0
        if outlived { kill(service, SIGKILL) }
        #expect(status == 128 + signal, "\(problems.text(waitingAtMost: 10))")
        #expect(!outlived, "the service (pid \(service)) outlived the bench")
        #expect(problems.text(waitingAtMost: 10).contains("scheduler-bench: stopped by signal \(signal); stopped "))
    }

    /// The pid of a `scheduler` whose parent is `parent`, if one runs.
    private func childScheduler(of parent: Int32) -> Int32? {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        return pids.first { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return false }
            // `pid (comm) state ppid …`
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return stat[stat.index(after: open)..<close] == "scheduler" && fields.count > 1 && Int32(fields[1]) == parent
        }
    }
}
