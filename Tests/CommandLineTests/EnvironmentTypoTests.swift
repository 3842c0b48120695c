import Foundation
import ProcessSupport
import Testing

/// A misspelt environment in a gate is a config error with its position, never a gate turned off everywhere: the
/// environments gates may name are declared once, in scheduler.yaml.
@Suite("Environments are a declared set")
struct EnvironmentTypoTests {
    /// A workspace whose gate is on in `production` and `staging` (declared), holding three items once run.
    func workspace() throws -> SourceWorkspace {
        let setup = try SourceWorkspace()
        try setup.editConfig(replacing: "store: { sqlite", with: "environments: [staging]\nstore: { sqlite")
        try setup.workspace.write("gates.yaml", "gates:\n  docs_gate: { enabled: true, environments: [production, staging] }\n")
        try setup.setFeed("a b c")
        return setup
    }

    @Test func validateNamesTheMisspeltEnvironmentWithItsPositionAndTheNearestName() async throws {
        let setup = try workspace()
        #expect(try await setup.run(["validate"]).status == 0)
        try setup.workspace.write("gates.yaml", "gates:\n  docs_gate: { enabled: true, environments: [prod, staging] }\n")
        let outcome = try await setup.run(["validate"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("gates.yaml:2:46: gate 'docs_gate': unknown environment 'prod' (did you mean 'production'?)"), "\(outcome.stderr)")
    }

    @Test func aHotReloadWithAMisspeltEnvironmentIsRefusedAndPurgesNothing() async throws {
        let setup = try workspace()
        let service = try await RunningService(setup.config)
        #expect(try await eventually { try await service.searchTotal() == 3 })
        try setup.workspace.write("gates.yaml", "gates:\n  docs_gate: { enabled: true, environments: [prod, staging] }\n")
        #expect(try await eventually { try await service.json("/status")["configValid"] as? Bool == false })
        let problems = try await service.json("/status")["problems"] as? [[String: Any]]
        #expect((problems?.first?["message"] as? String)?.contains("unknown environment 'prod'") == true, "\(problems ?? [])")
        #expect(try await service.searchTotal() == 3, "the last good configuration stays in force")
        // A valid change that turns the gate off says so, and its purge is a warning too.
        try setup.workspace.write("gates.yaml", "gates:\n  docs_gate: { enabled: true, environments: [staging] }\n")
        #expect(try await eventually { try await service.searchTotal() == 0 })
        #expect(await service.terminate() == 0, "\(service.log)")
        let log = await service.finalLog
        #expect(log.contains("the configuration change turns 1 unit(s) off: their domains are purged now"), "\(log)")
        #expect(log.contains("warning") && log.contains("purged"), "\(log)")
    }

    @Test func validateListsWhatTheConfigurationWouldPurge() async throws {
        let setup = try workspace()
        #expect(try await setup.run(["run-once"]).status == 0)
        try setup.workspace.write("gates.yaml", "gates:\n  docs_gate: { enabled: true, environments: [staging] }\n")
        let outcome = try await setup.run(["validate"])
        #expect(outcome.status == 0, "a valid configuration: \(outcome.stderr)")
        #expect(outcome.stdout.contains("would purge docs (com.test.docs, 3 items)"), "\(outcome.stdout)")
        #expect(try await setup.indexed().count == 3, "validate changes nothing")
    }
}
