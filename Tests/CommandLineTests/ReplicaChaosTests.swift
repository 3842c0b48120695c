import Foundation
import StoreSupport
import Testing

/// Three `scheduler run` replicas on one PostgreSQL database, twenty units, replicas killed and stalled while they
/// work: every unit still ends indexed once, by one replica at a time, and a stalled replica's late writes are refused.
@Suite("Replicas under chaos")
struct ReplicaChaosTests {
    static let partitions = (0..<20).map { String(format: "p%02d", $0) }

    /// A config folder shared by the replicas (each keeps its own lock files under `var/`), whose plugin logs
    /// `start`/`end` with its scheduler's pid to `runs.log`; partition p00 waits for the file `release`.
    static func workspace() async throws -> Workspace {
        let workspace = try Workspace()
        guard case .postgres(let location) = try await StoreBackend.postgres.freshLocation(in: workspace.url) else {
            throw CocoaError(.featureUnsupported)
        }
        try workspace.write("scheduler.yaml", """
            store: { postgres: { url: "\(location)", tls: disable, leaseTTL: 3s } }
            service: { tick: 1s, listen: 127.0.0.1:0 }
            sources:
              docs:
                plugin: command
                domain: com.test.docs
                gate: docs_gate
                schedule: monthly
                partitions: [\(partitions.joined(separator: ", "))]
                options: { command: [./feed.sh], timeout: 30m }
            """)
        try workspace.write("gates.yaml", "gates:\n  docs_gate: { enabled: true }\n")
        try workspace.write("feed.sh", """
            #!/bin/sh
            echo "start $SCHEDULER_PARTITION $PPID" >> runs.log
            if [ "$SCHEDULER_PARTITION" = p00 ]; then
                while [ ! -f release ]; do sleep 0.05; done
            fi
            for i in 1 2 3; do
                sleep 0.1
                printf '{"uniqueIdentifier":"%s-%s","domainIdentifier":"%s","title":"Doc %s %s"}\\n' \\
                    "$SCHEDULER_PARTITION" "$i" "$SCHEDULER_DOMAIN" "$SCHEDULER_PARTITION" "$i"
            done
            echo "end $SCHEDULER_PARTITION $PPID" >> runs.log
            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: workspace.path("feed.sh"))
        return workspace
    }

    /// The `runs.log` lines: what started and ended, and under which scheduler process.
    struct PluginRun: Hashable {
        var event: String
        var partition: String
        var schedulerPID: Int32
    }

    static func runs(_ workspace: Workspace) -> [PluginRun] {
        let text = (try? String(contentsOfFile: workspace.path("runs.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3, let pid = Int32(parts[2]) else { return nil }
            return PluginRun(event: String(parts[0]), partition: String(parts[1]), schedulerPID: pid)
        }
    }

    @Test func killedAndStalledReplicasLoseNothingAndNeverDoubleARun() async throws {
        let workspace = try await Self.workspace()
        let config = ["--config", workspace.url.path]
        func replica(_ id: String) async throws -> RunningService { try await RunningService(config + ["--replica-id", id]) }

        // r1 takes p00 (the first unit) and waits in its plugin; it is stalled (SIGSTOP) holding the lease.
        let stalled = try await replica("r1")
        #expect(try await eventually { Self.runs(workspace).contains(PluginRun(event: "start", partition: "p00", schedulerPID: stalled.process.processIdentifier)) })
        kill(stalled.process.processIdentifier, SIGSTOP)

        var replicas = [try await replica("r2"), try await replica("r3")]
        var killed: Set<Int32> = []
        try workspace.write("release", "")

        // While the others work through the units, kill whichever is running a plugin, and restart it.
        for round in 0..<3 {
            let victim = round % 2
            let pid = replicas[victim].process.processIdentifier
            _ = try await eventually(within: 20) {
                let runs = Self.runs(workspace).filter { $0.schedulerPID == pid }
                return runs.filter { $0.event == "start" }.count > runs.filter { $0.event == "end" }.count
            }
            kill(pid, SIGKILL)
            _ = await replicas[victim].process.exited()
            killed.insert(pid)
            replicas[victim] = try await replica(victim == 0 ? "r2" : "r3")
        }

        // Every unit ends succeeded, the stalled replica's p00 taken over once its lease expired.
        let observer = replicas[0]
        let allSucceeded = try await eventually(within: 120) {
            let units = try await observer.json("/status")["units"] as? [[String: Any]] ?? []
            return units.count == 20 && units.allSatisfy { $0["lastResult"] as? String == "succeeded" }
        }
        let finalStatus = try await observer.request("/status").body
        #expect(allSucceeded, "\(finalStatus)")

        // The stalled replica wakes: its plugin's items are still in its pipe, and every write it tries is refused.
        kill(stalled.process.processIdentifier, SIGCONT)
        let awake = try await eventually {
            guard stalled.process.isRunning else { return false }
            return (try? await stalled.request("/healthz").status) == 200
        }
        #expect(awake)
        let status = try await observer.json("/status")
        let replicasShown = (status["replicas"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(Set(replicasShown).isSuperset(of: ["r1", "r2", "r3"]), "\(replicasShown)")
        #expect(status["replicaWarning"] == nil || status["replicaWarning"] is NSNull, "one config folder, one fingerprint")

        for service in replicas + [stalled] { #expect(await service.terminate() == 0, "\(service.log)") }
        // Its lease was taken over (its fenced writes refused), or it found it expired when it woke, or its renewal
        // found no answer before the lease's end, or its pass failed first on the session the server ended while it
        // slept (nothing of it committed): either way it stopped.
        let log = await stalled.finalLog
        let passFailedOnTheEndedSession = log.split(separator: "\n").contains {
            $0.contains("the pass failed") && $0.contains("closed the connection before answering")
        }
        let stopped = [
            "the lease unit/docs/p00 was lost", "the lease unit/docs/p00 expired",
            "could not renew the lease unit/docs/p00 before it expired",
        ].contains { log.contains($0) }
        #expect(stopped || passFailedOnTheEndedSession, "\(log)")

        // No item lost: three per unit, found by every replica's store.
        let search = try await SchedulerProcess.run(["search", "doc", "--json", "--limit", "1000"] + config)
        let hits = (try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [String: Any])?["hits"] as? [[String: Any]] ?? []
        #expect(hits.count == 60, "\(search.stderr)")

        // Success recorded exactly once per unit: the schedule is monthly, so one completed run each.
        let history = try await SchedulerProcess.run(["history", "--json", "--limit", "1000"] + config)
        let records = (try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])?["runs"] as? [[String: Any]] ?? []
        let successes = Dictionary(grouping: records.filter { $0["decision"] as? String == "reindexed" }) { $0["unit"] as? String ?? "" }
        #expect(successes.count == 20 && successes.values.allSatisfy { $0.count == 1 }, "\(successes.mapValues(\.count))")

        // No unit run by two live replicas at once: among the replicas never killed nor stalled, a unit's plugin
        // runs never overlap, but where a replica stopped a run because it lost that unit's lease (starved of CPU
        // past the lease's 3 s on a loaded machine, it is no longer live to the others: the run it stops writes no
        // `end`, and the next holder may start before the starved replica wakes to stop it; its writes are fenced).
        let excluded = killed.union([stalled.process.processIdentifier])
        var stoppedForALostLease: Set<PluginRun> = []
        for service in replicas {
            let (pid, log) = (service.process.processIdentifier, await service.finalLog)
            for partition in Self.partitions where Self.stoppedForALostLease("unit/docs/\(partition)", in: log) {
                stoppedForALostLease.insert(PluginRun(event: "start", partition: partition, schedulerPID: pid))
            }
        }
        var running: [String: Set<Int32>] = [:]
        for run in Self.runs(workspace) where !excluded.contains(run.schedulerPID) {
            if run.event == "start" {
                let others = running[run.partition, default: []].filter {
                    !stoppedForALostLease.contains(PluginRun(event: "start", partition: run.partition, schedulerPID: $0))
                }
                #expect(others.isEmpty, "\(run.partition) started by \(run.schedulerPID) while \(others) ran it; its runs: \(Self.runs(workspace).filter { $0.partition == run.partition })")
                running[run.partition, default: []].insert(run.schedulerPID)
            } else {
                running[run.partition, default: []].remove(run.schedulerPID)
            }
        }
    }

    /// Whether a replica's log says it stopped the work under `lease` because it lost it (``LeasedWork``'s warnings).
    static func stoppedForALostLease(_ lease: String, in log: String) -> Bool {
        log.split(separator: "\n").contains { $0.contains("the lease \(lease) ") && $0.contains("the work under it stops") }
    }
}
