import Foundation
import Indexing
import Logging
import PluginAPI
import PostgresStore
import SchedulerService
import Store

#if canImport(Glibc)
import Glibc
#endif

/// A fleet under chaos (issue 29): `scheduler-bench --fleet URL [--replicas N] [--units N] [--kills N] [--json]`.
///
/// Starts `replicas` × `scheduler run` on one fresh PostgreSQL database (on the server URL names; dropped at the end)
/// with one `command` source of `units` partitions, all due at once (their first run). While they work, it kills a
/// random replica with SIGKILL and restarts it `kills` times, spread over the run by progress, and stops one with
/// SIGSTOP for three leases' time. With `--cut-connections N`, it also ends every session of the database N times
/// (`pg_terminate_backend`: what the replicas see of a PostgreSQL restart, transactions cut in the middle); with
/// `--skew SECONDS`, replica r1 runs with its clock that far ahead (`scheduler run --clock-offset`). The last partition's plugin waits until
/// all that is over, so the run cannot end first. When every unit has succeeded it stops them all with SIGTERM and counts, from the
/// store's history and the plugin's own log: units run to success more than once (`duplicates`, must be 0), units
/// never run (`missing`, must be 0), a unit run by two live replicas at once (`overlaps`, must be 0), replicas that
/// did not exit within 60 s of SIGTERM (`hung`, must be 0), and how the plugin runs spread over the replicas.
enum FleetBenchmark {
    struct Settings {
        var replicas = 10
        var units = 10_000
        var kills = 100
        var concurrency = 4
        /// How many times every session of the database is ended during the run.
        var connectionCuts = 0
        /// How far ahead replica r1's clock runs (`--clock-offset`), in seconds.
        var skew = 0
        /// How long the whole run may take before it is called stuck.
        var limit: Duration = .seconds(1800)
    }

    /// What the run counted.
    struct Report: Codable {
        var replicas: Int
        var units: Int
        var concurrency: Int
        var kills: Int
        var stalls: Int
        var connectionCuts: Int
        /// How far ahead replica r1's clock ran, in seconds.
        var skew: Int
        /// How far the latest end of a run in the history lies ahead of this program's clock when the last unit
        /// succeeded: about `skew` when the skewed replica ran units.
        var latestFinishAhead: Double
        var seconds: Double
        /// Units that succeeded: all of them, unless the run was stuck.
        var succeeded: Int
        var duplicates: Int
        var missing: Int
        var overlaps: Int
        var hung: Int
        /// Plugin runs that reached their end, by replica id (restarts keep their id).
        var pluginRunsByReplica: [String: Int]
        /// The fewest and most plugin runs of a replica, over the mean (a fair share is 0.5–2).
        var fewestOverMean: Double
        var mostOverMean: Double
    }

    static let leaseTTL = 3

    static func run(_ settings: Settings, server url: String, work: String, scheduler: String) async throws -> Report {
        var location = try PostgresBenchmark.serverLocation(url)
        let database = "scheduler_fleet_\(UInt32.random(in: 0...UInt32.max))"
        try await location.execute(statementWrittenByThisProgram: "CREATE DATABASE \(database)")
        let server = location
        location.database = database
        do {
            let report = try await run(settings, location: location, work: work, scheduler: scheduler)
            try await server.execute(statementWrittenByThisProgram: "DROP DATABASE \(database) WITH (FORCE)")
            return report
        } catch {
            try? await server.execute(statementWrittenByThisProgram: "DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
            throw error
        }
    }

    private static func run(_ settings: Settings, location: PostgresLocation, work: String, scheduler: String) async throws -> Report {
        let folder = "\(work)/fleet-\(location.database)"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try writeConfig(settings, location: location, folder: folder)

        let fleet = Fleet(scheduler: scheduler, folder: folder, skewed: settings.skew > 0 ? ("r1", settings.skew) : nil)
        let started = ContinuousClock.now
        for index in 1...settings.replicas { try await fleet.start("r\(index)") }

        let quiet = Logger(label: "fleet") { _ in SwiftLogNoOpLogHandler() }
        let (kills, stalls, cuts) = try await StoreOpener.withStore(.postgres(location), logger: quiet) { store in
            var random = SystemRandomNumberGenerator()
            var killed = 0, stalled = false, cut = 0
            while ContinuousClock.now - started < settings.limit {
                try await Task.sleep(for: .milliseconds(200))
                let states = try await store.units()
                let done = states.values.filter { $0.lastResult == .succeeded }.count
                // Kills (and cuts) spread by progress: kill k once k/(kills+1) of the units were tried (a unit that
                // failed waits for its backoff, a minute or more: the chaos goes on meanwhile).
                let tried = states.values.filter { $0.lastAttemptAt != nil }.count
                while killed < settings.kills, tried * (settings.kills + 1) >= (killed + 1) * (settings.units - 1) {
                    try await fleet.killAndRestart("r\(Int.random(in: 1...settings.replicas, using: &random))")
                    killed += 1
                }
                while cut < settings.connectionCuts, tried * (settings.connectionCuts + 1) >= (cut + 1) * (settings.units - 1) {
                    try await location.execute(statementWrittenByThisProgram: """
                        SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
                        """)
                    cut += 1
                }
                if !stalled, tried * 3 >= settings.units - 1 {
                    stalled = true
                    let victim = "r\(Int.random(in: 1...settings.replicas, using: &random))"
                    await fleet.signal(victim, SIGSTOP)
                    try await Task.sleep(for: .seconds(leaseTTL * 3))
                    await fleet.signal(victim, SIGCONT)
                    await fleet.markStalled(victim)
                }
                if killed == settings.kills, cut == settings.connectionCuts, stalled, !FileManager.default.fileExists(atPath: "\(folder)/release") {
                    _ = FileManager.default.createFile(atPath: "\(folder)/release", contents: nil)
                }
                if done == settings.units { break }
            }
            return (killed, stalled ? 1 : 0, cut)
        }
        let seconds = (ContinuousClock.now - started).seconds
        let endedAt = Date()
        let hung = await fleet.terminateAll()

        // The counts, read after every replica stopped.
        let (succeeded, successes, latestFinish) = try await StoreOpener.withStore(.postgres(location), logger: quiet) { store in
            let succeeded = try await store.units().values.filter { $0.lastResult == .succeeded }.count
            var successes: [String: Int] = [:]
            let history = try await store.history(source: "fleet", unit: nil, limit: settings.units * 50)
            for record in history where record.decision == .reindexed {
                successes[record.unit, default: 0] += 1
            }
            return (succeeded, successes, history.map(\.finishedAt).max() ?? .distantPast)
        }
        let runs = PluginRun.read("\(folder)/runs.log")
        let byReplica = await fleet.runsByReplica(runs)
        let mean = Double(byReplica.values.reduce(0, +)) / Double(max(1, settings.replicas))
        let counts = (1...settings.replicas).map { byReplica["r\($0)", default: 0] }
        return Report(
            replicas: settings.replicas, units: settings.units, concurrency: settings.concurrency, kills: kills, stalls: stalls,
            connectionCuts: cuts, skew: settings.skew, latestFinishAhead: latestFinish.timeIntervalSince(endedAt), seconds: seconds, succeeded: succeeded,
            duplicates: successes.values.reduce(0) { $0 + max(0, $1 - 1) }, missing: settings.units - successes.count,
            overlaps: await fleet.overlaps(runs), hung: hung, pluginRunsByReplica: byReplica,
            fewestOverMean: mean > 0 ? Double(counts.min() ?? 0) / mean : 0, mostOverMean: mean > 0 ? Double(counts.max() ?? 0) / mean : 0
        )
    }

    static func print(_ report: Report, json: Bool) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            Swift.print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        Swift.print("""
            \(report.replicas) replicas, \(report.units) units (concurrency \(report.concurrency)), \
            \(report.kills) kills, \(report.stalls) stall past the lease, \(report.connectionCuts) cuts of every database session, \
            r1's clock \(report.skew) s ahead: \(String(format: "%.1f", report.seconds)) s
            succeeded \(report.succeeded); duplicates \(report.duplicates), missing \(report.missing), \
            overlaps \(report.overlaps), hung on SIGTERM \(report.hung)
            plugin runs by replica: \(report.pluginRunsByReplica.sorted { $0.key.localizedStandardCompare($1.key) == .orderedAscending }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            fewest/mean \(String(format: "%.2f", report.fewestOverMean)), most/mean \(String(format: "%.2f", report.mostOverMean))
            """)
    }

    private static func writeConfig(_ settings: Settings, location: PostgresLocation, folder: String) throws {
        let width = String(settings.units - 1).count
        let partitions = (0..<settings.units).map { "p" + String(repeating: "0", count: width - String($0).count) + String($0) }
        // The history keeps every line of the run (the default keeps the last 1,000): the counts are read from it.
        try """
            store: { postgres: { url: "\(location)", tls: disable, leaseTTL: \(leaseTTL)s }, history: \(min(1_000_000, settings.units * 50)) }
            service: { tick: 1s, listen: 127.0.0.1:0, concurrency: \(settings.concurrency) }
            sources:
              fleet:
                plugin: command
                domain: com.fleet
                gate: fleet
                schedule: monthly
                partitions: [\(partitions.joined(separator: ", "))]
                options: { command: [./feed.sh], timeout: 10m }
            """.write(toFile: "\(folder)/scheduler.yaml", atomically: true, encoding: .utf8)
        try "gates:\n  fleet: { enabled: true }\n".write(toFile: "\(folder)/gates.yaml", atomically: true, encoding: .utf8)
        // The last partition waits for the file `release`, written once the chaos is over: the run cannot end first.
        let last = partitions[partitions.count - 1]
        try #"""
            #!/bin/sh
            echo "start $SCHEDULER_PARTITION $PPID" >> runs.log
            if [ "$SCHEDULER_PARTITION" = "\#(last)" ]; then
                while [ ! -f release ]; do sleep 0.05; done
            fi
            printf '{"uniqueIdentifier":"%s","domainIdentifier":"%s","title":"Unit %s"}\n' "$SCHEDULER_PARTITION" "$SCHEDULER_DOMAIN" "$SCHEDULER_PARTITION"
            echo "end $SCHEDULER_PARTITION $PPID" >> runs.log
            """#.write(toFile: "\(folder)/feed.sh", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(folder)/feed.sh")
    }
}

/// One line of the fleet plugin's log: a run of a partition started or ended, under which scheduler process.
struct PluginRun: Sendable {
    var started: Bool
    var partition: Substring
    var schedulerPID: Int32

    static func read(_ path: String) -> [PluginRun] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3, let pid = Int32(parts[2]) else { return nil }
            return PluginRun(started: parts[0] == "start", partition: parts[1], schedulerPID: pid)
        }
    }
}

/// The replicas' processes: started, killed, stopped, and which process was which replica.
actor Fleet {
    let scheduler: String
    let folder: String
    /// The replica whose clock runs ahead, and by how many seconds.
    let skewed: (id: String, seconds: Int)?
    /// Each replica's pid.
    private var running: [String: Int32] = [:]
    private var replicaOfPID: [Int32: String] = [:]
    /// Processes killed or stalled: their plugin runs may overlap a successor's by design.
    private var excluded: Set<Int32> = []

    init(scheduler: String, folder: String, skewed: (id: String, seconds: Int)?) {
        self.scheduler = scheduler
        self.folder = folder
        self.skewed = skewed
    }

    func start(_ id: String) throws {
        let arguments = ["run", "--config", folder, "--replica-id", id, "--log-level", "warning"]
            + (skewed.flatMap { $0.id == id ? ["--clock-offset", "\($0.seconds)"] : nil } ?? [])
        let logPath = "\(folder)/\(id).log"
        if !FileManager.default.fileExists(atPath: logPath) { _ = FileManager.default.createFile(atPath: logPath, contents: nil) }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        defer { try? log.close() }
        log.seekToEndOfFile()
        let pid = try BenchChildren.started {
            try ProcessSpawn.spawn(
                scheduler, arguments: arguments, environment: ProcessInfo.processInfo.environment,
                output: .descriptor(log.fileDescriptor), errors: .descriptor(log.fileDescriptor), newGroup: true
            )
        }
        running[id] = pid
        replicaOfPID[pid] = id
    }

    func killAndRestart(_ id: String) throws {
        guard let scheduler = running[id] else { return }
        kill(scheduler, SIGKILL)
        BenchChildren.wait(for: scheduler)
        excluded.insert(scheduler)
        try start(id)
    }

    func signal(_ id: String, _ signal: Int32) {
        guard let scheduler = running[id] else { return }
        kill(scheduler, signal)
    }

    func markStalled(_ id: String) {
        if let scheduler = running[id] { excluded.insert(scheduler) }
    }

    /// Sends SIGTERM to every replica and waits up to 60 s for each; returns how many had to be killed.
    func terminateAll() -> Int {
        for scheduler in running.values { kill(scheduler, SIGTERM) }
        var hung = 0
        let deadline = Date().addingTimeInterval(60)
        for (id, scheduler) in running.sorted(by: { $0.key < $1.key }) {
            while !BenchChildren.hasEnded(scheduler), Date() < deadline { usleep(50_000) }
            if !BenchChildren.hasEnded(scheduler) {
                hung += 1
                kill(scheduler, SIGKILL)
                BenchChildren.wait(for: scheduler)
                // Its log's end, since the folder may not outlive the run (a test's workspace).
                let log = (try? String(contentsOfFile: "\(folder)/\(id).log", encoding: .utf8)) ?? ""
                let tail = log.split(separator: "\n", omittingEmptySubsequences: false).suffix(80).joined(separator: "\n")
                FileHandle.standardError.write(Data("replica \(id) (pid \(scheduler)) did not exit within 60 s of SIGTERM; the end of \(folder)/\(id).log:\n\(tail)\n".utf8))
            }
        }
        return hung
    }

    func runsByReplica(_ runs: [PluginRun]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for run in runs where !run.started {
            if let id = replicaOfPID[run.schedulerPID] { counts[id, default: 0] += 1 }
        }
        return counts
    }

    /// Starts of a partition's plugin while another live (never killed nor stalled) replica still ran it.
    func overlaps(_ runs: [PluginRun]) -> Int {
        var open: [Substring: Int32] = [:]
        var overlaps = 0
        for run in runs where !excluded.contains(run.schedulerPID) {
            if run.started {
                if let other = open[run.partition] {
                    overlaps += 1
                    FileHandle.standardError.write(Data("\(run.partition) started by pid \(run.schedulerPID) (\(replicaOfPID[run.schedulerPID] ?? "?")) while pid \(other) (\(replicaOfPID[other] ?? "?")) ran it\n".utf8))
                }
                open[run.partition] = run.schedulerPID
            } else {
                open[run.partition] = nil
            }
        }
        return overlaps
    }
}

