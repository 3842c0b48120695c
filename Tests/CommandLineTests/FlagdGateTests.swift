import Foundation
import Testing

/// A gate decided by a flag of a flagd definition file, driving the real binary: `run-once`, `gates` and `run`.
@Suite("Gates from flagd flags")
struct FlagdGateTests {
    /// A boolean flag `docs-index` whose default is `defaultVariant`; `state` is ENABLED or DISABLED.
    static func flagFile(defaultVariant: String = "on", state: String = "ENABLED") -> String {
        """
        {
          "$schema": "https://flagd.dev/schema/v0/flags.json",
          "flags": {
            "docs-index": {
              "state": "\(state)",
              "variants": { "on": true, "off": false },
              "defaultVariant": "\(defaultVariant)",
              "targeting": { "if": [{ "==": [{ "var": "environment" }, "staging"] }, "off"] }
            }
          }
        }
        """
    }

    /// A workspace whose gate `docs_gate` is the flag `docs-index` of `flags.flagd.json`.
    static func workspace() throws -> SourceWorkspace {
        let setup = try SourceWorkspace()
        try setup.workspace.write("gates.yaml", "gates:\n  docs_gate: { flagd: { file: flags.flagd.json, flag: docs-index } }\n")
        try setup.workspace.write("flags.flagd.json", flagFile())
        try setup.setFeed("a b c")
        return setup
    }

    @Test func runOnceIndexesWhileTheFlagIsOnAndPurgesWhenItsDefaultTurnsOff() async throws {
        let setup = try Self.workspace()
        let first = try await setup.run(["run-once"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try await setup.indexed() == ["a", "b", "c"])

        let gates = try await setup.run(["gates", "--json"])
        #expect(gates.status == 0, "\(gates.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(gates.stdout.utf8)) as? [String: Any]
        let unit = try #require((report?["units"] as? [[String: Any]])?.first)
        #expect(unit["state"] as? String == "on")
        #expect(unit["reason"] as? String == "on: flag 'docs-index' in flags.flagd.json served 'on' (DEFAULT)")
        let flag = try #require(unit["flag"] as? [String: Any])
        #expect(flag["file"] as? String == "flags.flagd.json")
        #expect(flag["flag"] as? String == "docs-index")
        #expect(flag["variant"] as? String == "on")
        #expect(flag["reason"] as? String == "DEFAULT")

        try setup.workspace.write("flags.flagd.json", Self.flagFile(defaultVariant: "off"))
        let second = try await setup.run(["run-once"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try await setup.indexed() == [], "the flag's default turned off: the domain is purged")
    }

    @Test func theTargetingSeesTheUnitsEnvironment() async throws {
        let setup = try Self.workspace()
        try setup.editConfig(replacing: "store:", with: "environment: staging\nstore:")
        let gates = try await setup.run(["gates"])
        #expect(gates.status == 0, "\(gates.stderr)")
        #expect(gates.stdout.contains("gate docs_gate off: flag 'docs-index' in flags.flagd.json served 'off' (TARGETING_MATCH)"), "\(gates.stdout)")
    }

    @Test func aDisabledFlagIsAGateThatIsOff() async throws {
        let setup = try Self.workspace()
        #expect(try await setup.run(["run-once"]).status == 0)
        #expect(try await setup.indexed() == ["a", "b", "c"])

        try setup.workspace.write("flags.flagd.json", Self.flagFile(state: "DISABLED"))
        let outcome = try await setup.run(["run-once"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try await setup.indexed() == [])
        #expect(try await setup.run(["gates"]).stdout.contains("gate docs_gate off: flag 'docs-index' in flags.flagd.json is DISABLED"))
    }

    @Test(arguments: [
        ("deleted", nil, "gates.yaml:2:"),
        ("not JSON", "{ \"flags\": { \"docs-index\": ", "flags.flagd.json:2:1: syntax (a flag file is JSON or YAML)"),
        ("without the flag", #"{ "flags": { "docs-indx": { "state": "ENABLED", "variants": { "on": true }, "defaultVariant": "on" } } }"#, "did you mean 'docs-indx'"),
        ("a string flag", #"{ "flags": { "docs-index": { "state": "ENABLED", "variants": { "on": "yes" }, "defaultVariant": "on" } } }"#, "must be a boolean flag, but its variant 'on' is of type string"),
    ] as [(String, String?, String)])
    func aFlagFileThatCannotDecideRefusesTheRunAndKeepsEverything(change: String, text: String?, place: String) async throws {
        let setup = try Self.workspace()
        #expect(try await setup.run(["run-once"]).status == 0)
        if let text {
            try setup.workspace.write("flags.flagd.json", text)
        } else {
            try FileManager.default.removeItem(atPath: setup.workspace.path("flags.flagd.json"))
        }
        let outcome = try await setup.run(["run-once"])
        #expect(outcome.status == 2, "\(change): \(outcome.stderr)")
        #expect(outcome.stderr.contains(place), "\(change): \(outcome.stderr)")
        #expect(try await setup.indexed() == ["a", "b", "c"], "\(change): nothing was purged")
    }

    /// `gates --at` loads the configuration as of now and decides at the instant given: a unit the flag would hold
    /// then says so, while the run now goes on.
    @Test func gatesAtALaterInstantShowsAUnitTheFlagWouldHold() async throws {
        let setup = try Self.workspace()
        let later = 1_798_761_600   // 2027-01-01T00:00:00Z
        try setup.workspace.write("flags.flagd.json", Self.flagFile().replacingOccurrences(
            of: #"{ "if": [{ "==": [{ "var": "environment" }, "staging"] }, "off"] }"#,
            with: #"{ "if": [{ ">": [{ "var": "$flagd.timestamp" }, \#(later)] }, { "sem_ver": ["x", "=", "1.0.0"] }, "on"] }"#
        ))
        #expect(try await setup.run(["run-once"]).status == 0)
        let gates = try await setup.run(["gates", "--at", "2027-06-01T00:00:00Z"])
        #expect(gates.status == 0, "\(gates.stderr)")
        #expect(gates.stdout.contains(#"gate docs_gate held: flag 'docs-index' in flags.flagd.json did not resolve: sem_ver: "x" is not a version"#), "\(gates.stdout)")
        #expect(try await setup.indexed() == ["a", "b", "c"])
    }

    /// A flag file named by an absolute path is shown as it is in a problem, ready to open.
    @Test func aProblemInAFlagFileNamedAbsolutelyShowsItsPath() async throws {
        let setup = try Self.workspace()
        let elsewhere = setup.workspace.path("elsewhere/flags.json")
        try setup.workspace.write("elsewhere/flags.json", #"{ "flags": [] }"#)
        try setup.workspace.write("gates.yaml", "gates:\n  docs_gate: { flagd: { file: \(elsewhere), flag: docs-index } }\n")
        let outcome = try await setup.run(["validate"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix(elsewhere + ":1:"), "\(outcome.stderr)")
    }

    /// The service follows the flag file through a ConfigMap-style `..data` swap: a missing file is refused
    /// (`configValid: false`, everything kept), a default turned off purges without waiting for the hour-long tick.
    @Test func theServiceFollowsTheFlagFileAndNeverPurgesOnAMissingOne() async throws {
        let setup = try Self.workspace()
        let files = FileManager.default, folder = setup.workspace.url
        try files.createDirectory(at: folder.appendingPathComponent("..v1"), withIntermediateDirectories: true)
        try files.moveItem(at: folder.appendingPathComponent("flags.flagd.json"), to: folder.appendingPathComponent("..v1/flags.flagd.json"))
        try files.createSymbolicLink(atPath: setup.workspace.path("..data"), withDestinationPath: "..v1")
        try files.createSymbolicLink(atPath: setup.workspace.path("flags.flagd.json"), withDestinationPath: "..data/flags.flagd.json")
        let service = try await RunningService(setup.config)
        #expect(try await eventually { try await service.searchTotal() == 3 })

        // The new version lacks the file: the link dangles, the load is refused, nothing is purged.
        try files.createDirectory(at: folder.appendingPathComponent("..v2"), withIntermediateDirectories: true)
        try swapData(to: "..v2", in: setup)
        #expect(try await eventually { try await service.json("/status")["configValid"] as? Bool == false })
        let problems = try #require(try await service.json("/status")["problems"] as? [[String: Any]])
        #expect(problems.first?["file"] as? String == "gates.yaml", "\(problems)")
        #expect(try await service.searchTotal() == 3)

        // The next version turns the default off: valid again, and the domain is purged.
        try setup.workspace.write("..v3/flags.flagd.json", Self.flagFile(defaultVariant: "off"))
        try swapData(to: "..v3", in: setup)
        #expect(try await eventually { try await service.searchTotal() == 0 }, "turning the flag's default off purged the domain")
        #expect(try await service.json("/status")["configValid"] as? Bool == true)
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    /// Points `..data` at `version` atomically, as the kubelet does.
    private func swapData(to version: String, in setup: SourceWorkspace) throws {
        try FileManager.default.createSymbolicLink(atPath: setup.workspace.path("..data.new"), withDestinationPath: version)
        #expect(rename(setup.workspace.path("..data.new"), setup.workspace.path("..data")) == 0)
    }
}
