import Foundation
import PluginAPI
import SchedulerConfig
import Testing

/// Gates and experiments decided by flags of flagd definition files: the mapping, the context a unit is evaluated
/// in, and every way a flag file can be wrong, which must keep the last good configuration (a refused load).
@Suite("Gates and experiments from flagd flags")
struct FlagdConfigTests {
    let now = ISO8601.date(from: "2026-12-15T00:00:00Z")!

    /// A boolean flag with `targeting` (JSON), as flagd reads it.
    static func booleanFlag(state: String = "ENABLED", defaultVariant: String = "on", targeting: String = "{}") -> String {
        """
        {
          "$schema": "https://flagd.dev/schema/v0/flags.json",
          "flags": {
            "spotlight-index": {
              "state": "\(state)",
              "variants": { "on": true, "off": false },
              "defaultVariant": "\(defaultVariant)",
              "targeting": \(targeting)
            }
          }
        }
        """
    }

    static let flagGate = "gates:\n  spotlight_index:\n    flagd: { file: flags.flagd.json, flag: spotlight-index }\n"

    func folder(flags: String?, gates: String = Self.flagGate, experiments: String? = nil) throws -> ConfigFolder {
        let folder = try ConfigFolder(gates: gates, experiments: experiments)
        if let flags { try folder.write("flags.flagd.json", flags) }
        return folder
    }

    func gateStates(_ configuration: SchedulerConfiguration) -> [String: GateState] {
        Dictionary(uniqueKeysWithValues: configuration.plans(at: now).map { ($0.unit.key, $0.gateDecision.state) })
    }

    @Test func aBooleanFlagDecidesTheGateAndSaysWhichVariantAndWhy() throws {
        let configuration = try folder(flags: Self.booleanFlag()).load()
        let plan = try #require(configuration.plans(at: now).first)
        #expect(plan.gateDecision.state == .on)
        #expect(plan.gateDecision.reason == "on: flag 'spotlight-index' in flags.flagd.json served 'on' (STATIC)")
        #expect(plan.gateDecision.flag == FlagVerdict(file: "flags.flagd.json", flag: "spotlight-index", variant: "on", reason: "STATIC"))

        let off = try folder(flags: Self.booleanFlag(defaultVariant: "off")).load().plans(at: now)
        #expect(off.allSatisfy { $0.gateDecision.state == .off }, "the default variant off turns every unit off: their domains are purged")
    }

    @Test func aDisabledFlagIsAGateThatIsOff() throws {
        let plans = try folder(flags: Self.booleanFlag(state: "DISABLED")).load().plans(at: now)
        #expect(plans.map(\.gateDecision.state) == [.off, .off])
        #expect(plans[0].gateDecision.reason == "off: flag 'spotlight-index' in flags.flagd.json is DISABLED")
    }

    /// The context: targetingKey is the unit key; source, partition, domain, environment and $flagd.flagKey are there.
    @Test func rulesSeeTheUnitsContext() throws {
        let byKey = #"{"if": [{"==": [{"var": "targetingKey"}, "categories/fr"]}, "on", "off"]}"#
        #expect(gateStates(try folder(flags: Self.booleanFlag(targeting: byKey)).load()) == ["categories/fr": .on, "categories/us": .off])

        let byFields = #"""
            {"if": [{"and": [
              {"==": [{"var": "source"}, "categories"]}, {"==": [{"var": "partition"}, "us"]},
              {"==": [{"var": "domain"}, "com.shop.categories.us"]}, {"==": [{"var": "environment"}, "production"]},
              {"==": [{"var": "$flagd.flagKey"}, "spotlight-index"]}
            ]}, "on", "off"]}
            """#
        #expect(gateStates(try folder(flags: Self.booleanFlag(targeting: byFields)).load()) == ["categories/fr": .off, "categories/us": .on])
    }

    /// `fractional` without a bucketing value hashes flagKey + targetingKey, so a unit's share is the one flagd
    /// computes for the same flag and key: here the two spellings must agree for every unit.
    @Test func fractionalBucketsByTheFlagKeyAndUnitKey() throws {
        let implicit = #"{"fractional": [["on", 50], ["off", 50]]}"#
        let explicit = #"{"fractional": [{"cat": [{"var": "$flagd.flagKey"}, {"var": "targetingKey"}]}, ["on", 50], ["off", 50]]}"#
        let other = #"{"fractional": [{"cat": ["other", {"var": "targetingKey"}]}, ["on", 50], ["off", 50]]}"#
        let partitions = (0..<64).map { "p\($0)" }
        let scheduler = ConfigFolder.scheduler.replacingOccurrences(of: "partitions: [us, fr]", with: "partitions: [\(partitions.joined(separator: ", "))]")
        func states(_ targeting: String) throws -> [String: GateState] {
            let folder = try ConfigFolder(scheduler: scheduler, gates: Self.flagGate, experiments: nil)
            try folder.write("flags.flagd.json", Self.booleanFlag(targeting: targeting))
            return gateStates(try folder.load())
        }
        let implicitStates = try states(implicit)
        #expect(implicitStates == (try states(explicit)))
        #expect(implicitStates != (try states(other)), "another bucketing value reshuffles the units")
        let on = implicitStates.values.filter { $0 == .on }.count
        #expect(on > 16 && on < 48, "about half of 64 units: \(on)")
    }

    @Test func aYAMLFlagFileAndATabIndentedJSONFileAreRead() throws {
        let yaml = """
            flags:
              spotlight-index:
                state: ENABLED
                variants: { on: true, off: false }
                defaultVariant: "off"
            """
        let fromYAML = try folder(flags: nil, gates: Self.flagGate.replacingOccurrences(of: "flags.flagd.json", with: "flags.yaml"))
        try fromYAML.write("flags.yaml", yaml)
        #expect(gateStates(try fromYAML.load()).values.allSatisfy { $0 == .off })

        let tabbed = Self.booleanFlag().replacingOccurrences(of: "  ", with: "\t")
        #expect(tabbed.contains("\t\t\"spotlight-index\""))
        #expect(gateStates(try folder(flags: tabbed).load()).values.allSatisfy { $0 == .on })
    }

    /// Every way the flag can be unusable is a refused load (so the last good configuration stays in force),
    /// with where: the config's line:col, or the flag file's line:col and JSON pointer.
    @Test(arguments: [
        (nil, "gates.yaml:3:20", "the flag file flags.flagd.json does not exist"),
        ("{\"flags\": {", "flags.flagd.json:2:1", "syntax (a flag file is JSON or YAML)"),
        (FlagdConfigTests.booleanFlag().replacingOccurrences(of: "spotlight-index", with: "spotlight-indx"), "gates.yaml:3:44",
         "flags.flagd.json has no flag 'spotlight-index' (did you mean 'spotlight-indx'?)"),
        (FlagdConfigTests.booleanFlag().replacingOccurrences(of: "\"off\": false", with: "\"off\": \"no\""), "gates.yaml:3:44",
         "must be a boolean flag, but its variant 'off' is of type string"),
        (FlagdConfigTests.booleanFlag().replacingOccurrences(of: "\"defaultVariant\": \"on\",", with: "\"defaultVariant\": null,"), "gates.yaml:3:44",
         "has no defaultVariant"),
        (FlagdConfigTests.booleanFlag(targeting: #"{"regex": [{"var": "source"}, "x"]}"#), "flags.flagd.json:8:",
         "at /flags/spotlight-index/targeting"),
        (FlagdConfigTests.booleanFlag(targeting: #"{"if": [{"starts_with": [{"var": "source"}]}, "on", "off"]}"#), "gates.yaml:3:12",
         "unit categories/us would be held: flag 'spotlight-index' in flags.flagd.json did not resolve: \"starts_with\" takes 2 arguments, not 1"),
        (FlagdConfigTests.booleanFlag(targeting: #"{"fractional": [["on", 0], ["off", 0]]}"#), "gates.yaml:3:12", "fractional weights add up to 0"),
        (FlagdConfigTests.booleanFlag().replacingOccurrences(of: "\"flags\": {", with: "\"flags\": {\"spotlight-index\": {}, "), "flags.flagd.json:",
         "spotlight-index"),
    ] as [(String?, String, String)])
    func anUnusableFlagIsARefusedLoadWithItsPlace(flags: String?, place: String, message: String) throws {
        let problems = try folder(flags: flags).problems().map(\.description)
        #expect(problems.contains { $0.hasPrefix(place) && $0.contains(message) }, "\(problems)")
    }

    @Test func aFlagGateTakesNoOtherFieldsAndAFlagFileOverOneMebibyteIsRefused() throws {
        let mixed = try folder(flags: Self.booleanFlag(), gates: Self.flagGate + "    enabled: true\n").problems().map(\.description)
        #expect(mixed.contains { $0.hasPrefix("gates.yaml:4:5") && $0.contains("'enabled' cannot be set beside 'flagd:'") }, "\(mixed)")

        let huge = Self.booleanFlag().replacingOccurrences(of: "\"flags\"", with: "\"metadata\": {\"pad\": \"\(String(repeating: "x", count: 1 << 20))\"}, \"flags\"")
        let refused = try folder(flags: huge).problems().map(\.description)
        #expect(refused.contains { $0.hasPrefix("flags.flagd.json: ") && $0.contains("over the limit of 1048576 bytes") }, "\(refused)")
    }

    @Test func theFingerprintFollowsTheFlagFile() throws {
        let folder = try folder(flags: Self.booleanFlag())
        let before = try folder.load().fingerprint
        try folder.write("flags.flagd.json", Self.booleanFlag(targeting: #"{"if": [true, "on", "off"]}"#))
        #expect(try folder.load().fingerprint != before, "replicas running different flag files see different fingerprints")
    }

    // MARK: Experiments

    static let cadenceFlag = """
        flags:
          cadence:
            state: ENABLED
            variants: { a: control, b: weekly }
            defaultVariant: a
            targeting: { if: [{ "==": [{ var: partition }, fr] }, b, a] }
        """

    static func flagExperiment(variants: String = "control: {}\n      weekly: { overrides: { schedule: weekly } }", extra: String = "") -> String {
        """
        experiments:
          reindex_cadence:
            sources: [categories]
            flagd: { file: flags.yaml, flag: cadence }\(extra)
            variants:
              \(variants)
        """
    }

    func experimentFolder(flag: String = Self.cadenceFlag, experiment: String = Self.flagExperiment()) throws -> ConfigFolder {
        let folder = try ConfigFolder(experiments: experiment)
        try folder.write("flags.yaml", flag)
        return folder
    }

    @Test func aStringFlagsValueNamesTheVariantAndItsOverridesApply() throws {
        let plans = try experimentFolder().load().plans(at: now)
        let byUnit = Dictionary(uniqueKeysWithValues: plans.map { ($0.unit.key, $0) })
        #expect(byUnit["categories/fr"]?.variant?.variant == "weekly")
        #expect(byUnit["categories/fr"]?.settings.schedule == .weekly)
        #expect(byUnit["categories/fr"]?.variant?.reason == "variant weekly: flag 'cadence' in flags.yaml served 'b' (TARGETING_MATCH)")
        #expect(byUnit["categories/us"]?.variant?.variant == "control")
        #expect(byUnit["categories/us"]?.settings.schedule == .monthly)
        #expect(plans.allSatisfy { $0.gateDecision.isOn && $0.variant?.bucket == nil })

        let disabled = try experimentFolder(flag: Self.cadenceFlag.replacingOccurrences(of: "ENABLED", with: "DISABLED")).load().plans(at: now)
        #expect(disabled.allSatisfy { $0.variant?.variant == "control" && $0.gateDecision.isOn }, "a disabled flag gives the first variant, never a purge")
    }

    @Test(arguments: [
        (FlagdConfigTests.cadenceFlag.replacingOccurrences(of: "b: weekly", with: "b: daily"), FlagdConfigTests.flagExperiment(),
         "experiments.yaml:4:38", "serves 'daily' for its variant 'b', which is not a variant of the experiment (control, weekly)"),
        (FlagdConfigTests.cadenceFlag.replacingOccurrences(of: "b: weekly", with: "b: 7"), FlagdConfigTests.flagExperiment(),
         "experiments.yaml:4:38", "its variant 'b' is of type number"),
        (FlagdConfigTests.cadenceFlag, FlagdConfigTests.flagExperiment(variants: "control: { weight: 1 }\n      weekly: {}"),
         "experiments.yaml:6:26", "'weight' cannot be set when 'flagd:' assigns the variants"),
        (FlagdConfigTests.cadenceFlag, FlagdConfigTests.flagExperiment(extra: "\n    salt: x"),
         "experiments.yaml:5:5", "'salt' cannot be set beside 'flagd:'"),
        (FlagdConfigTests.cadenceFlag + "\n  cadence: { state: ENABLED, variants: { a: control }, defaultVariant: a }", FlagdConfigTests.flagExperiment(),
         "flags.yaml:", "cadence"),
    ])
    func anExperimentsFlagMustNameItsVariants(flag: String, experiment: String, place: String, message: String) throws {
        let problems = try experimentFolder(flag: flag, experiment: experiment).problems().map(\.description)
        #expect(problems.contains { $0.hasPrefix(place) && $0.contains(message) }, "\(problems)")
    }

    /// The gate may turn on while the flag file stays as it is: an experiment's flag that fails is refused even
    /// while every unit's gate is off.
    @Test func anExperimentsFlagThatFailsIsRefusedWhileItsGateIsOff() throws {
        let folder = try ConfigFolder(gates: "gates:\n  spotlight_index: { enabled: false }\n", experiments: Self.flagExperiment())
        try folder.write("flags.yaml", Self.cadenceFlag.replacingOccurrences(
            of: #"{ "==": [{ var: partition }, fr] }"#, with: #"{ sem_ver: [{ var: partition }, ">=", "1.0.0"] }"#
        ))
        let problems = folder.problems().map(\.description)
        #expect(problems.contains { $0.hasPrefix("experiments.yaml:4:") && $0.contains("unit categories/us would be held: experiment 'reindex_cadence'") }, "\(problems)")
    }

    /// Flag files are read as config files are: through links, never past the limit, never a device or a pipe.
    @Test func aLinkToAHugeFileAPipeOrADeviceIsRefusedWithoutReadingIt() throws {
        let folder = try folder(flags: nil)
        let huge = folder.url.appendingPathComponent("huge.json")
        _ = FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 8 << 30)   // sparse: 8 GiB that a whole read would try to hold
        try handle.close()
        for (target, message) in [(huge.path, "over the limit of 1048576 bytes"), ("/dev/zero", "not a regular file")] {
            try? FileManager.default.removeItem(atPath: folder.url.appendingPathComponent("flags.flagd.json").path)
            try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("flags.flagd.json").path, withDestinationPath: target)
            let problems = folder.problems().map(\.description)
            #expect(problems.contains { $0.hasPrefix("flags.flagd.json: ") && $0.contains(message) }, "\(target): \(problems)")
        }
        try FileManager.default.removeItem(atPath: folder.url.appendingPathComponent("flags.flagd.json").path)
        #expect(mkfifo(folder.url.appendingPathComponent("flags.flagd.json").path, 0o644) == 0)
        let problems = folder.problems().map(\.description)
        #expect(problems.contains { $0.hasPrefix("flags.flagd.json: ") && $0.contains("not a regular file") }, "a pipe: \(problems)")
    }
}
