import Foundation
import Testing

/// The reconcile pass under careless operators and hostile feeds, through the real binary.
@Suite("The pass holds against interruptions and shrinking feeds")
struct EngineHardeningTests {
    func unit(_ outcome: SchedulerProcess.Outcome) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        return try #require((object?["units"] as? [[String: Any]])?.first, "\(outcome.stdout)\n\(outcome.stderr)")
    }

    /// Starts `run-once` with `arguments`, waits until its first batch is committed, and SIGKILLs it.
    func killMidRun(_ setup: SourceWorkspace, _ arguments: [String], firstItem: String) async throws {
        let (process, _, _) = try SchedulerProcess.startInBackground(["run-once", "--batch-size", "1"] + arguments + setup.config)
        let deadline = Date().addingTimeInterval(60)
        while try await !setup.indexed().contains(firstItem), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        kill(process.processIdentifier, SIGKILL)
        _ = await process.exited()
        try setup.workspace.write("release", "")
    }

    @Test func anInterruptedForcedRunIsRedoneForced() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c d e f g h i j")
        #expect(try await setup.run(["run-once"]).status == 0)

        // The operator forces a run that replaces ten items by one; it is killed after its first batch.
        try setup.setFeed("x WAIT")
        try await killMidRun(setup, ["--force"], firstItem: "x")
        try setup.setFeed("x")

        // The redo needs no --force: the interrupted run's intent stands, and the old items go.
        let redo = try await setup.run(["run-once", "--json"])
        #expect(redo.status == 0, "\(redo.stderr)")
        let unit = try unit(redo)
        #expect(unit["decision"] as? String == "reindexed", "\(unit)")
        #expect(unit["reason"] as? String == "the last run, forced, was interrupted before its final commit: redone forced")
        #expect(try await setup.indexed() == ["x"])
    }

    @Test func anInterruptedUnforcedRunIsNotRedoneForced() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c d e f g h i j")
        #expect(try await setup.run(["run-once"]).status == 0)
        try setup.setFeed("x WAIT")
        try await killMidRun(setup, ["--source", "docs", "--at", ISO8601DateFormatter().string(from: Date().addingTimeInterval(40 * 86_400))], firstItem: "x")
        try setup.setFeed("x")
        let redo = try await setup.run(["run-once", "--json"])
        #expect(redo.status == 1)
        #expect(try unit(redo)["decision"] as? String == "failed", "the delete-ratio guard still applies")
        #expect(try await setup.indexed().count == 11)
    }

    /// A feed shrinking to 51 % on every run would empty the domain in five "successful" runs if each run were
    /// compared with the one before only.
    @Test func aFeedShrinkingRunByRunCannotEmptyTheDomain() async throws {
        let setup = try SourceWorkspace(schedule: "every 1m")
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        var minute = 0
        func run(_ count: Int, force: Bool = false) async throws -> [String: Any] {
            try setup.setFeed((0..<count).map { "i\($0)" }.joined(separator: " "))
            minute += 2
            let now = ISO8601DateFormatter().string(from: start.addingTimeInterval(Double(minute * 60)))
            return try await unit(setup.run(["run-once", "--json", "--at", now] + (force ? ["--force"] : [])))
        }
        #expect(try await run(1000)["decision"] as? String == "reindexed")
        #expect(try await run(511)["decision"] as? String == "reindexed", "49 % fewer: within maxDeleteRatio 0.5")
        let refused = try await run(261)
        #expect(refused["decision"] as? String == "failed")
        #expect((refused["error"] as? String)?.contains("the run produced 261 items, 74% fewer than the 1000 of the largest success of docs within maxDeleteWindow 1w") == true, "\(refused)")
        #expect(try await setup.status()["items"] as? Int == 511, "nothing was deleted")

        // An operator accepts the new size; the guard then measures from it.
        #expect(try await run(261, force: true)["decision"] as? String == "reindexed")
        #expect(try await run(134)["decision"] as? String == "reindexed")
        #expect(try await run(69)["decision"] as? String == "failed")
        #expect(try await setup.status()["items"] as? Int == 134)
    }

    @Test func anItemEmittedTwiceIsCountedOnce() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b a c b a")
        let outcome = try await setup.run(["run-once", "--json", "--batch-size", "2"])
        #expect(try unit(outcome)["indexed"] as? Int == 3)
        #expect(try await setup.status()["items"] as? Int == 3)
        let history = try await setup.run(["history", "--json"])
        #expect(history.stdout.contains(#""indexed":3"#), "\(history.stdout)")
    }

    @Test func aFailedRunSaysWhatFailedInItsLogLine() async throws {
        let setup = try SourceWorkspace()
        try setup.writeScript("#!/bin/sh\necho 'feed unreachable' >&2\nexit 7\n")
        let outcome = try await setup.run(["run-once"])
        #expect(outcome.status == 1)
        let line = try #require(outcome.stderr.split(separator: "\n").first { $0.contains("failed") && $0.contains("unit=docs") }, "\(outcome.stderr)")
        #expect(line.contains("error=") && line.contains("exit"), "\(line)")
    }

    @Test func aDatabaseRemovedMidRunIsBlamedOnTheDatabaseNotThePlugin() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a WAIT b")
        let (process, _, _, errors) = try SchedulerProcess.start(["run-once", "--batch-size", "1"] + setup.config)
        let stderr = Drain(errors)
        let deadline = Date().addingTimeInterval(60)
        while try await !setup.indexed().contains("a"), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: setup.workspace.path("index.sqlite" + suffix)) }
        try setup.workspace.write("release", "")
        _ = await process.exited()
        let log = stderr.text()
        #expect(process.terminationStatus != 0)
        #expect(log.contains("was removed or replaced after this process opened it"), "\(log)")
        #expect(!log.contains("the plugin failed"), "\(log)")
        #expect(!FileManager.default.fileExists(atPath: setup.workspace.path("index.sqlite")))
    }

    /// Whether process `pid` runs (a zombie waiting for a reaper does not).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].split(separator: " ").first
        return state != "Z" && state != "X"
    }

    @Test func aPluginLeftRunningByAKilledSchedulerIsStoppedByTheNextPass() async throws {
        let setup = try SourceWorkspace()
        try setup.writeScript("""
            #!/bin/sh
            echo $$ > plugin.pid
            printf '{"uniqueIdentifier":"a","domainIdentifier":"%s","title":"Doc a"}\\n' "$SCHEDULER_DOMAIN"
            while [ ! -f release ]; do sleep 0.05; done
            """)
        let (process, _, _) = try SchedulerProcess.startInBackground(["run-once", "--batch-size", "1"] + setup.config)
        let deadline = Date().addingTimeInterval(60)
        while try await !setup.indexed().contains("a"), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        kill(process.processIdentifier, SIGKILL)
        _ = await process.exited()
        let pid = try #require(Int32(try String(contentsOfFile: setup.workspace.path("plugin.pid"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(-pid, SIGKILL) }
        #expect(Self.isRunning(pid), "SIGKILL leaves the plugin's group running")

        try setup.writeScript("#!/bin/sh\nprintf '{\"uniqueIdentifier\":\"a\",\"domainIdentifier\":\"%s\",\"title\":\"Doc a\"}\\n' \"$SCHEDULER_DOMAIN\"\n")
        let next = try await setup.run(["run-once"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("stopped a plugin's process group left running by a scheduler that was killed"), "\(next.stderr)")
        let stopped = Date().addingTimeInterval(10)
        while Self.isRunning(pid), Date() < stopped { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!Self.isRunning(pid))
        #expect(!FileManager.default.fileExists(atPath: setup.workspace.path("index.sqlite.plugins")), "no group runs: no ledger file")
    }

    /// SIGTERM stops `run-once` as it stops the service: at a batch boundary, the plugin's group stopped, the store
    /// closed, exit 4; the unit keeps its previous success and the next pass redoes it (forced, as it was started).
    @Test func sigtermStopsAPassAtABatchBoundaryAndTheNextPassRedoesIt() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c")
        #expect(try await setup.run(["run-once"]).status == 0)
        try setup.writeScript("""
            #!/bin/sh
            echo $$ > plugin.pid
            for id in $(cat ids.txt); do
                printf '{"uniqueIdentifier":"%s","domainIdentifier":"%s","title":"Doc %s"}\\n' "$id" "$SCHEDULER_DOMAIN" "$id"
            done
            while [ ! -f release ]; do sleep 0.05; done
            """)
        try setup.setFeed("a new")
        let (process, _, _, stderr) = try SchedulerProcess.start(["run-once", "--batch-size", "1", "--force"] + setup.config)
        let errors = Drain(stderr)
        let deadline = Date().addingTimeInterval(60)
        while try await !setup.indexed().contains("new"), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        kill(process.processIdentifier, SIGTERM)
        _ = await process.exited()
        let pid = try #require(Int32(try String(contentsOfFile: setup.workspace.path("plugin.pid"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(-pid, SIGKILL) }

        #expect(process.terminationStatus == 4, "\(errors.text())")
        #expect(errors.text().contains("stopped by a signal before the pass ended"), "\(errors.text())")
        #expect(!Self.isRunning(pid), "the plugin's group is stopped with the pass")
        #expect(try await setup.indexed() == ["a", "b", "c", "new"], "committed batches stay; nothing is swept")

        try setup.writeScript("#!/bin/sh\nfor id in $(cat ids.txt); do printf '{\"uniqueIdentifier\":\"%s\",\"domainIdentifier\":\"%s\",\"title\":\"Doc %s\"}\\n' \"$id\" \"$SCHEDULER_DOMAIN\" \"$id\"; done\n")
        let redo = try await setup.run(["run-once", "--json"])
        #expect(redo.status == 0, "\(redo.stderr)")
        #expect(try unit(redo)["reason"] as? String == "the last run, forced, was interrupted before its final commit: redone forced")
        #expect(try await setup.indexed() == ["a", "new"])
    }

    /// SIGKILL at random moments of incremental runs, over and over: the state a run is handed (the last one
    /// committed) never runs ahead of the items committed before the kill, and the runs go on from it.
    @Test func killedIncrementalRunsNeverCommitAStateAheadOfTheirItems() async throws {
        let setup = try SourceWorkspace(extraLines: "    incremental: hourly")
        // Each run sends the five items after its state, each followed by a state naming it.
        try setup.writeScript("""
            #!/bin/sh
            state=0
            if [ -n "$SCHEDULER_STATE_FILE" ] && [ -f "$SCHEDULER_STATE_FILE" ]; then state=$(cat "$SCHEDULER_STATE_FILE"); fi
            echo "$SCHEDULER_SYNC_MODE $state" >> starts.txt
            i=$((state + 1))
            while [ $i -le $((state + 5)) ]; do
                printf '{"uniqueIdentifier":"n%03d","domainIdentifier":"%s","title":"Doc %d"}\n' $i "$SCHEDULER_DOMAIN" $i
                printf '{"state": %d}\n' $i
                sleep 0.03
                i=$((i + 1))
            done
            """)
        #expect(try await setup.run(["run-once"]).status == 0)
        func handedStates() throws -> [(mode: String, state: Int)] {
            try String(contentsOfFile: setup.workspace.path("starts.txt"), encoding: .utf8).split(separator: "\n").map { line in
                let fields = line.split(separator: " ")
                return (String(fields[0]), Int(fields[1]) ?? -1)
            }
        }
        var generator = SystemRandomNumberGenerator()
        for round in 1...10 {
            let (process, _, _) = try SchedulerProcess.startInBackground(["run-once", "--incremental", "--batch-size", "1"] + setup.config)
            try await Task.sleep(for: .milliseconds(Int.random(in: 50...450, using: &generator)))
            kill(process.processIdentifier, SIGKILL)
            _ = await process.exited()
            let indexed = Set(try await setup.indexed())
            // The next run is handed what the killed one committed last.
            let next = try await setup.run(["run-once", "--incremental", "--batch-size", "1"])
            #expect(next.status == 0, "round \(round): \(next.stderr)")
            let handed = try #require(try handedStates().last)
            #expect(handed.mode == "incremental", "round \(round)")
            let missing = (0..<max(0, handed.state)).map { String(format: "n%03d", $0 + 1) }.filter { !indexed.contains($0) }
            #expect(missing.isEmpty, "round \(round): the state \(handed.state) was committed, but not the items \(missing)")
        }
        let states = try handedStates().map(\.state)
        #expect(states == states.sorted(), "a state never moves back: \(states)")
        let last = try #require(states.last)
        #expect(try await setup.indexed() == (1...last + 5).map { String(format: "n%03d", $0) }, "nothing lost, nothing skipped")
    }
}
