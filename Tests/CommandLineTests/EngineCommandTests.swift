import Foundation
import Testing

@Suite("scheduler run-once, status, history and purge")
struct EngineCommandTests {
    /// The `units` of `run-once --json`.
    func units(_ outcome: SchedulerProcess.Outcome) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        return try #require(object?["units"] as? [[String: Any]], "\(outcome.stdout)\n\(outcome.stderr)")
    }

    @Test func theExampleConfigIndexesAndIsSearchable() async throws {
        let workspace = try Workspace()
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        // The example database path (../var/index.sqlite) lands inside the workspace.
        try FileManager.default.copyItem(at: repository.appendingPathComponent("config"), to: workspace.url.appendingPathComponent("config"))
        try FileManager.default.copyItem(at: repository.appendingPathComponent("examples"), to: workspace.url.appendingPathComponent("examples"))
        let config = ["--config", workspace.path("config")]

        let first = try await SchedulerProcess.run(["run-once"] + config)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("help/en  reindexed: 3 indexed"))
        #expect(first.stdout.contains("help/fr  reindexed: 3 indexed"))
        #expect(first.stdout.contains("blog  reindexed: 3 indexed, 0 deleted, 0 rejected"), "the draft is skipped")
        #expect(first.stdout.contains("categories/us  reindexed: 3 indexed"))
        #expect(first.stdout.contains("categories/fr  reindexed: 2 indexed"))
        let categories = try await SchedulerProcess.run(["search", "plateau", "--json"] + config)
        #expect(categories.stdout.contains(#""contentURL":"shop://category/14""#))
        #expect(categories.stdout.contains(#""uniqueIdentifier":"fr/14""#))
        let search = try await SchedulerProcess.run(["search", "livr"] + config)
        #expect(search.stdout.contains("Délais de livraison"))
        let posts = try await SchedulerProcess.run(["search", "comt", "--domain", "com.shop.blog"] + config)
        #expect(posts.stdout.contains("Cheese of the month: Comté"))
        #expect(posts.stdout.contains("shop://blog/cheese-of-the-month-comte"))
        let again = try await SchedulerProcess.run(["run-once"] + config)
        #expect(again.stdout.contains("help/en  not-due"))
    }

    @Test func pluginsListsTheKindsAndTheirOptions() async throws {
        let outcome = try await SchedulerProcess.run(["plugins", "--json"])
        #expect(outcome.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let plugins = try #require(object?["plugins"] as? [[String: Any]])
        #expect(plugins.compactMap { $0["kind"] as? String } == ["category-feed", "command", "posts"])
        let posts = try #require(plugins.last?["options"] as? [[String: Any]])
        #expect(posts.contains { $0["name"] as? String == "directory" && $0["isRequired"] as? Bool == true })
    }

    @Test func runOnceReportsEveryUnitInJSON() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c")

        // Items expire 30 days after indexing, and search hides expired ones: pass a date near today.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let outcome = try await setup.run(["run-once", "--json", "--at", now.formatted(.iso8601)])

        #expect(outcome.status == 0, "\(outcome.stderr)")
        let unit = try #require(try units(outcome).first)
        #expect(unit["source"] as? String == "docs")
        #expect(unit["unit"] as? String == "docs")
        #expect(unit["domain"] as? String == "com.test.docs")
        #expect(unit["gate"] as? String == "on")
        #expect(unit["decision"] as? String == "reindexed")
        #expect(unit["indexed"] as? Int == 3)
        #expect(unit["lastSuccess"] as? String == now.formatted(.iso8601))
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        #expect(unit["nextDue"] as? String == utc.date(byAdding: .month, value: 1, to: now)?.formatted(.iso8601))
        #expect(unit["error"] is NSNull)
        #expect(unit["mode"] as? String == "full")
        #expect(Set(unit.keys) == ["source", "unit", "domain", "gate", "variant", "decision", "reason", "indexed", "unchanged", "deleted", "rejected", "lastSuccess", "nextDue", "error", "mode"])
        #expect(try await setup.indexed() == ["a", "b", "c"])
    }

    @Test func aDryRunDecidesWithoutCreatingOrChangingAnything() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b")
        let dry = try await setup.run(["run-once", "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try units(dry).first?["decision"] as? String == "would-reindex")
        #expect(!FileManager.default.fileExists(atPath: setup.workspace.path("index.sqlite")), "no database was created")

        #expect(try await setup.run(["run-once"]).status == 0)
        try setup.setGate(on: false)
        let wouldPurge = try await setup.run(["run-once", "--dry-run"])
        #expect(wouldPurge.stdout.contains("docs  would-purge"))
        #expect(try await setup.indexed() == ["a", "b"])
    }

    @Test func aFailingSourceExitsOneAndKeepsItsItems() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c")
        #expect(try await setup.run(["run-once"]).status == 0)
        let firstSuccess = try await setup.status()["lastSuccess"] as? String
        try setup.writeScript("#!/bin/sh\necho 'source database unreachable' >&2\nexit 7\n")

        let outcome = try await setup.run(["run-once", "--force"])

        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("docs  failed"))
        #expect(outcome.stdout.contains("exit"))
        #expect(try await setup.indexed() == ["a", "b", "c"])
        let status = try await setup.status()
        #expect(status["lastSuccess"] as? String == firstSuccess)
        #expect(status["lastResult"] as? String == "failed")
        #expect(status["backoffUntil"] is String)
        let history = try await setup.run(["history", "--json", "--source", "docs"])
        let runs = try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any]
        #expect((runs?["runs"] as? [[String: Any]])?.map { $0["decision"] as? String } == ["failed", "reindexed"])
    }

    @Test func anInvalidConfigExitsTwoAndPurgesNothing() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b")
        #expect(try await setup.run(["run-once"]).status == 0)
        try setup.workspace.write("gates.yaml", "gates:\n  docs_gate: { enabled: false\n")

        let outcome = try await setup.run(["run-once"])

        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("gates.yaml:"))
        #expect(try await setup.indexed() == ["a", "b"])
        let status = try await SchedulerProcess.run(["status", "--json"] + setup.config)
        #expect(status.stdout.contains(#""configValid":false"#))
        #expect(status.stdout.contains(#""gate":"unknown""#))
    }

    @Test func aGateTurnedOffPurgesAndAnOperatorCanPurgeOrphans() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b")
        #expect(try await setup.run(["run-once"]).status == 0)
        try setup.setGate(on: false)
        let off = try await setup.run(["run-once"])
        #expect(off.stdout.contains("docs  purged: 2 deleted"))
        #expect(try await setup.indexed().isEmpty)

        // Items of a domain no source covers any more are reported, and left alone until purged.
        let orphan = #"{"uniqueIdentifier":"old","domainIdentifier":"com.test.retired","title":"Doc old"}"#
        #expect(try await SchedulerProcess.run(["index", "import", "-"] + setup.config, input: Data((orphan + "\n").utf8)).status == 0)
        #expect(try await setup.run(["run-once"]).status == 0)
        let status = try await setup.run(["status"])
        #expect(status.stdout.contains("orphaned domain com.test.retired: 1 items"))
        let purge = try await setup.run(["purge", "--domain", "com.test.retired"])
        #expect(purge.status == 0)
        #expect(purge.stdout.contains("1 items deleted"))
        #expect(try await setup.indexed().isEmpty)
    }

    /// A pause is kept in the database: the next `run-once`, forced or not, leaves the source alone and `status`
    /// says so, until `resume`.
    @Test func aPausedSourceIsLeftAloneByRunOnceUntilResumed() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a")
        let paused = try await setup.run(["pause", "--source", "docs"])
        #expect(paused.status == 0, "\(paused.stderr)")
        #expect(paused.stdout.contains("docs: paused"))
        #expect(try await setup.run(["pause", "--source", "docs"]).stdout.contains("docs: already paused"))
        let pass = try await setup.run(["run-once", "--force", "--json"])
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(try units(pass).first?["decision"] as? String == "paused")
        #expect(try await setup.indexed().isEmpty)
        let status = try await setup.run(["status"])
        #expect(status.stdout.contains("gate on  0 items  paused"), "\(status.stdout)")
        #expect(status.stdout.contains("source docs paused since"), "\(status.stdout)")
        let resumed = try await setup.run(["resume", "--source", "docs"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("docs: resumed"))
        #expect(try units(try await setup.run(["run-once", "--json"])).first?["decision"] as? String == "reindexed")
        #expect(try await setup.indexed() == ["a"])
        let unknown = try await setup.run(["resume", "--source", "doc"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown source 'doc'"), "\(unknown.stderr)")
    }

    /// A pause made while a pass runs holds the units the pass has not started yet: here the first partition's
    /// program pauses its own source, and the second partition, started after it (one unit at a time), is left alone.
    @Test func aPauseMadeDuringAPassHoldsTheUnitsItHasNotStarted() async throws {
        let setup = try SourceWorkspace(extraLines: "    partitions: [a, b]")
        try setup.editConfig(
            replacing: "timeout: 30m }", with: "timeout: 30m, env: { BIN: \"\(SchedulerProcess.executable.path)\", CONFIG: \"\(setup.workspace.url.path)\" } }"
        )
        try setup.writeScript("""
            #!/bin/sh
            if [ "$SCHEDULER_PARTITION" = a ]; then "$BIN" pause --source docs --config "$CONFIG" >&2 || exit 9; fi
            printf '{"uniqueIdentifier":"%s-1","domainIdentifier":"%s","title":"Doc"}\\n' "$SCHEDULER_PARTITION" "$SCHEDULER_DOMAIN"
            """)
        let pass = try await setup.run(["run-once", "--json", "--concurrency", "1"])
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(try units(pass).map { "\($0["unit"] ?? "") \($0["decision"] ?? "")" } == ["docs/a reindexed", "docs/b paused"])
    }

    /// `scheduler cancel` from another process stops a `run-once` at its next batch: what it committed stays, and
    /// the run says who cancelled it.
    @Test func cancelStopsARunningPassAtItsNextBatch() async throws {
        let setup = try SourceWorkspace()
        let idle = try await setup.run(["cancel", "--source", "docs"])
        #expect(idle.status == 1)
        #expect(idle.stderr.contains("nothing to cancel: no unit of source 'docs' is running"), "\(idle.stderr)")
        try setup.setFeed("a WAIT b c")
        let (process, _, stdout, _) = try SchedulerProcess.start(["run-once", "--batch-size", "1", "--json"] + setup.config)
        let output = Drain(stdout)
        defer { try? setup.workspace.write("release", "") }
        let deadline = Date().addingTimeInterval(60)
        while try await !setup.indexed().contains("a"), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let cancel = try await setup.run(["cancel", "--source", "docs"])
        #expect(cancel.status == 0, "\(cancel.stderr)")
        #expect(cancel.stdout.contains("cancel requested: docs stops within seconds"))
        try setup.workspace.write("release", "")
        _ = await process.exited()
        let outcome = SchedulerProcess.Outcome(status: process.terminationStatus, stdout: output.text(waitingAtMost: 10), stderr: "")
        #expect(outcome.status == 0, "a cancel is not a failure")
        let unit = try #require(try units(outcome).first)
        #expect(unit["decision"] as? String == "cancelled")
        #expect((unit["error"] as? String)?.contains("cancelled by scheduler cancel") == true)
        #expect(try await setup.indexed().contains("a"))
        #expect(try await setup.status()["lastResult"] as? String == "cancelled")
    }

    @Test func theFormerNameOfAtStillWorksWithANotice() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a")
        let outcome = try await setup.run(["run-once", "--dry-run", "--json", "--now", "2026-12-01T00:00:00Z"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("note: --now is now called --at"), "\(outcome.stderr)")
        #expect(try units(outcome).first?["decision"] as? String == "would-reindex")
    }

    @Test(arguments: [
        (["run-once", "--source", "doc"], "--source 'doc' is not a source", Int32(64)),
        (["run-once", "--at", "next tuesday"], "is neither an instant such as 2026-12-01T00:00:00Z (a time and its zone: Z or +01:00) nor a date such as 2026-12-01", Int32(64)),
        (["run-once", "--now", "next tuesday"], "--now 'next tuesday' is neither an instant", Int32(64)),
        (["run-once", "--at", "2026-12-01T00:00:00Z", "--now", "2026-12-01T00:00:00Z"], "give --at only (--now is its former name)", Int32(64)),
        (["gates", "--at", "2026-02-30"], "--at '2026-02-30' is neither an instant", Int32(64)),
        (["gates", "--at", "2026-12-01T00:00:00"], "--at '2026-12-01T00:00:00' is neither an instant", Int32(64)),
        (["run-once", "--batch-size", "0"], "--batch-size must be between 1 and 100000", Int32(64)),
        (["run-once", "--concurrency", "0"], "--concurrency must be between 1 and 64", Int32(64)),
        (["run-once", "--concurrency", "10000"], "--concurrency must be between 1 and 64", Int32(64)),
        (["history", "--limit", "0"], "--limit must be between 1 and 10000", Int32(64)),
        (["purge", "--domain", "com..bad"], "domain", Int32(64)),
        (["pause", "--source", "doc"], "unknown source 'doc' (did you mean 'docs'?); the sources are docs", Int32(64)),
    ])
    func badArgumentsAreRefusedWithAReason(arguments: [String], message: String, status: Int32) async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a")
        let outcome = try await setup.run(arguments)
        #expect(outcome.status == status)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: setup.workspace.path("index.sqlite")))
    }

    /// A second pass while one runs reports "busy" and exits 3; the SIGKILLed first one leaves the previous
    /// items and success intact, and the next pass redoes its work.
    @Test func aKilledRunLosesNothingAndASecondPassMeanwhileIsBusy() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c")
        #expect(try await setup.run(["run-once"]).status == 0)
        let firstSuccess = try await setup.status()["lastSuccess"] as? String
        try setup.setFeed("a new WAIT d")

        let (process, _, _) = try SchedulerProcess.startInBackground(["run-once", "--batch-size", "1", "--force"] + setup.config)
        defer { try? setup.workspace.write("release", "") }
        let deadline = Date().addingTimeInterval(60)
        while try await !setup.indexed().contains("new"), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(try await setup.indexed().contains("new"), "the first batch of the run was committed")

        let busy = try await setup.run(["run-once"])
        #expect(busy.status == 3)
        #expect(busy.stderr.contains("busy"))
        // The same database reached through a link to its file is the same database: its pass lock is the one held.
        try FileManager.default.createSymbolicLink(atPath: setup.workspace.path("link.sqlite"), withDestinationPath: setup.workspace.path("index.sqlite"))
        let throughALink = try await SchedulerProcess.run(["purge", "--domain", "com.test.other", "--database", setup.workspace.path("link.sqlite")])
        #expect(throughALink.status == 3 && throughALink.stderr.contains("busy"), "\(throughALink.stderr)")

        kill(process.processIdentifier, SIGKILL)
        _ = await process.exited()
        try setup.workspace.write("release", "")

        #expect(try await setup.indexed() == ["a", "b", "c", "new"])
        let seen = try await setup.status()
        #expect(seen["lastSuccess"] as? String == firstSuccess)
        #expect(seen["lastResult"] as? String == "interrupted", "nothing runs it any more: \(seen)")
        #expect(seen["due"] as? Bool == true)

        try setup.setFeed("a new d")
        let next = try await setup.run(["run-once", "--json"])
        #expect(next.status == 0, "\(next.stderr)")
        let unit = try #require(try units(next).first)
        #expect(unit["decision"] as? String == "reindexed")
        #expect(unit["reason"] as? String == "the last run, forced, was interrupted before its final commit: redone forced")
        #expect(try await setup.indexed() == ["a", "d", "new"])
        #expect(try await setup.status()["lastResult"] as? String == "succeeded")
    }
}
