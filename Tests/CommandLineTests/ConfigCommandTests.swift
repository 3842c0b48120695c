import Foundation
import ProcessSupport
import Testing

@Suite("scheduler validate and scheduler gates")
struct ConfigCommandTests {
    /// The repository's example config, copied so a test can break it.
    func exampleConfig(in workspace: Workspace) throws -> String {
        try workspace.copyExampleConfig()
    }

    @Test func theExampleConfigValidates() async throws {
        let workspace = try Workspace()
        let outcome = try await SchedulerProcess.run(["validate", "--config", try exampleConfig(in: workspace)])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("is valid: 3 sources (5 units), 2 gates, 1 experiment"))
    }

    /// `--config config/scheduler.yaml` names the folder to give, for every command that reads the config.
    @Test(arguments: [["validate"], ["run-once", "--dry-run"], ["status"]])
    func aConfigFileGivenForTheFolderIsNamedWithTheFolder(command: [String]) async throws {
        let workspace = try Workspace()
        let config = try exampleConfig(in: workspace)
        let outcome = try await SchedulerProcess.run(command + ["--config", config + "/scheduler.yaml"])
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("--config names the file \(config)/scheduler.yaml; it takes the folder holding scheduler.yaml and gates.yaml: --config \(config)"), "\(outcome.stderr)")
    }

    @Test func theBinaryReadsYAMLThroughTheSystemLibyaml() async throws {
        let output = Pipe()
        let ldd = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/ldd"), arguments: [SchedulerProcess.executable.path], standardOutput: .pipe(output)
        )
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        _ = await ldd.exited()
        #expect(text.contains("libyaml-0.so"), "\(text)")
        #expect(text.contains("libcmark.so"), "posts' Markdown goes through the system cmark: \(text)")
    }

    @Test func anInvalidConfigExitsTwoWithOneLinePerProblem() async throws {
        let workspace = try Workspace()
        let config = try exampleConfig(in: workspace)
        try "gates:\n  spotlight_index:\n    enabeld: true\n    rollout: 150\n  blog_index: { enabled: true }\n".write(toFile: config + "/gates.yaml", atomically: true, encoding: .utf8)

        let outcome = try await SchedulerProcess.run(["validate", "--config", config])

        #expect(outcome.status == 2)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.contains { $0.hasSuffix("gates.yaml:3:5: unknown key 'enabeld' in gate 'spotlight_index' (did you mean 'enabled'?)") })
        #expect(lines.contains { $0.contains("gates.yaml:4:14: rollout must be between 0 and 100 (got 150)") })
    }

    @Test func validateSpeaksJSON() async throws {
        let workspace = try Workspace()
        let config = try exampleConfig(in: workspace)
        try "gates: {}\n".write(toFile: config + "/gates.yaml", atomically: true, encoding: .utf8)
        let outcome = try await SchedulerProcess.run(["validate", "--json", "--config", config])
        #expect(outcome.status == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == false)
        let problem = try #require((object["problems"] as? [[String: Any]])?.first)
        #expect(problem["file"] as? String == "gates.yaml")
        #expect(problem["line"] as? Int == 1)
    }

    @Test func gatesShowsEachUnitWithItsReasons() async throws {
        let workspace = try Workspace()
        let outcome = try await SchedulerProcess.run(["gates", "--json", "--at", "2026-12-01T00:00:00Z", "--config", try exampleConfig(in: workspace)])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let units = try #require(object["units"] as? [[String: Any]])
        #expect(units.map { $0["unit"] as? String } == ["categories/us", "categories/fr", "help/en", "help/fr", "blog"])
        #expect(units[2]["state"] as? String == "on")
        #expect(units[2]["reason"] as? String == "on: rolled out to every unit (rollout 100%)")
        #expect(units[3]["variantReason"] as? String == "variant weekly (bucket 5085)")
        #expect(units[4]["reason"] as? String == "on: flag 'blog-index' in flags.flagd.json served 'on' (TARGETING_MATCH)")
    }

    /// A date alone is its midnight in the configuration's time zone: a gate window opening at midnight in Paris is
    /// open at `--at` that day, not at midnight UTC (an hour later).
    @Test func aDateAloneIsItsMidnightInTheConfigurationsTimeZone() async throws {
        let workspace = try Workspace()
        try workspace.write("scheduler.yaml", """
            store: { sqlite: { path: index.sqlite } }
            defaults: { timeZone: Europe/Paris }
            sources:
              docs: { plugin: command, domain: com.test.docs, gate: window, schedule: monthly, options: { command: [./feed.sh] } }
            """)
        try workspace.write("gates.yaml", "gates:\n  window: { enabled: true, from: 2026-12-31T23:00:00Z }\n")
        let opening = try await SchedulerProcess.run(["gates", "--at", "2027-01-01", "--json", "--config", workspace.url.path])
        #expect(opening.status == 0, "\(opening.stderr)")
        #expect(opening.stdout.contains(#""state":"on""#), "midnight in Paris is 23:00 UTC the day before: \(opening.stdout)")
        let before = try await SchedulerProcess.run(["gates", "--at", "2026-12-31", "--json", "--config", workspace.url.path])
        #expect(before.stdout.contains(#""state":"off""#), "\(before.stdout)")
    }

    @Test func gatesRefusesAMalformedDate() async throws {
        let workspace = try Workspace()
        let outcome = try await SchedulerProcess.run(["gates", "--at", "next tuesday", "--config", try exampleConfig(in: workspace)])
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("--at 'next tuesday' is neither an instant"))
    }

    @Test func indexCommandsStillWorkWhileTheGatesFileIsBroken() async throws {
        let workspace = try Workspace()
        let config = try exampleConfig(in: workspace)
        try "gates: [".write(toFile: config + "/gates.yaml", atomically: true, encoding: .utf8)
        let outcome = try await SchedulerProcess.run(["index", "stats", "--config", config])
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }
}

/// A large config (20,000 gates, 5,000 sources) loads in linear time: mappings composed in quadratic time took
/// 8–10 s for 20,000 keys, and the domain-overlap check compared every source with every other.
@Suite("A config at scale")
struct LargeConfigTests {
    @Test func twentyThousandGatesAndFiveThousandSourcesValidate() async throws {
        let workspace = try Workspace()
        try workspace.write("gates.yaml", "gates:\n" + (0..<20_000).map { "  g\($0): { enabled: true }\n" }.joined())
        try workspace.write("scheduler.yaml", "store: { sqlite: { path: index.sqlite } }\nsources:\n" + (0..<5_000).map {
            "  s\($0): { plugin: command, domain: com.test.s\($0), gate: g\($0), schedule: daily, options: { command: [./feed.sh] } }\n"
        }.joined())
        let (process, _, stdout, stderr) = try SchedulerProcess.start(["validate", "--config", workspace.url.path])
        let output = Drain(stdout), errors = Drain(stderr)
        // A hang guard, not a timing: linear loading takes well under a second here.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        _ = await process.exited()
        #expect(process.terminationStatus == 0, "\(errors.text())")
        #expect(output.text().contains("is valid: 5000 sources (5000 units), 20000 gates"))
    }
}
