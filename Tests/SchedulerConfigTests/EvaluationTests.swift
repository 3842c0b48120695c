import SchedulerConfig
import Foundation
import PluginAPI
import Testing

@Suite("Evaluating gates and experiments")
struct EvaluationTests {
    /// Published vectors: `fmix64(FNV-1a-64(utf8)) mod 10000`, computed by an independent implementation.
    @Test(arguments: [
        ("gate/spotlight_index/categories", 9519), ("gate/spotlight_index/categories/fr", 7277),
        ("gate/spotlight_index/categories/us", 2331), ("experiment/2026-11/categories/fr", 6671),
        ("experiment/reindex_cadence/categories/fr", 1470), ("", 4342),
    ])
    func bucketsMatchThePublishedVectors(text: String, bucket: Int) {
        #expect(Bucketing.bucket(text) == bucket)
    }

    func gate(enabled: Bool = true, rollout: Double = 100, environments: [String]? = nil, from: String? = nil, until: String? = nil) throws -> Gate {
        // `staging` is declared, so a gate may name it.
        let folder = try ConfigFolder(
            scheduler: ConfigFolder.scheduler.replacingOccurrences(of: "environment: production", with: "environment: production\nenvironments: [staging]")
        )
        var text = "gates:\n  g:\n    enabled: \(enabled)\n    rollout: \(rollout)\n"
        if let environments { text += "    environments: [\(environments.joined(separator: ", "))]\n" }
        if let from { text += "    from: \(from)\n" }
        if let until { text += "    until: \(until)\n" }
        try folder.write("gates.yaml", text + "  spotlight_index: { enabled: true }\n")
        return try #require(try folder.load().gates["g"])
    }

    let now = ISO8601.date(from: "2026-12-15T00:00:00Z")!

    /// The unit `key` names (`source` or `source/partition`).
    func unit(_ key: String) -> SchedulerConfig.Unit {
        let parts = key.split(separator: "/", maxSplits: 1).map(String.init)
        return Unit(source: parts[0], partition: parts.count > 1 ? parts[1] : nil, domain: "com.test")
    }

    @Test func aGateIsOnOnlyWhenEveryConditionHolds() throws {
        #expect(try gate().evaluate(unit: unit("u"), environment: "production", at: now).isOn)
        #expect(try gate(enabled: false).evaluate(unit: unit("u"), environment: "production", at: now).reason == "off: gate 'g' is disabled")
        #expect(try !gate(environments: ["staging"]).evaluate(unit: unit("u"), environment: "production", at: now).isOn)
        #expect(try !gate(from: "2027-01-01T00:00:00Z").evaluate(unit: unit("u"), environment: "production", at: now).isOn)
        #expect(try !gate(until: "2026-12-01T00:00:00Z").evaluate(unit: unit("u"), environment: "production", at: now).isOn)
        #expect(try gate(from: "2026-12-01T00:00:00Z", until: "2027-01-01T00:00:00Z").evaluate(unit: unit("u"), environment: "production", at: now).isOn)
    }

    @Test func rolloutComparesTheUnitBucketAndSaysSo() throws {
        // categories/fr has rollout bucket 7277 for gate spotlight_index (see the vectors above).
        let folder = try ConfigFolder()
        try folder.write("gates.yaml", "gates:\n  spotlight_index: { enabled: true, rollout: 72.78 }\n")
        let at72_78 = try folder.load().gates["spotlight_index"]!
        try folder.write("gates.yaml", "gates:\n  spotlight_index: { enabled: true, rollout: 50 }\n")
        let at50 = try folder.load().gates["spotlight_index"]!
        #expect(at72_78.evaluate(unit: unit("categories/fr"), environment: "production", at: now).reason == "on: within the rollout of 72.78% (this unit is in from 72.78%)")
        #expect(at50.evaluate(unit: unit("categories/fr"), environment: "production", at: now).reason == "off: not rolled out to this unit yet (rollout 50%; it is in from 72.78%)")
    }

    @Test func variantsFollowTheirBucketAndIgnoreTheRollout() throws {
        let folder = try ConfigFolder()
        let before = try folder.load().plans(at: now)
        try folder.write("gates.yaml", "gates:\n  spotlight_index: { enabled: true, rollout: 10 }\n")
        let after = try folder.load().plans(at: now)
        // categories/fr: bucket 6671 with salt 2026-11 falls in the second half: weekly.
        #expect(before.first { $0.unit.key == "categories/fr" }?.variant?.reason == "variant weekly (bucket 6671)")
        #expect(before.map(\.variant?.variant) == after.map(\.variant?.variant))
    }

    @Test func aVariantsOverridesApplyToItsUnitsOnly() throws {
        let plans = try ConfigFolder().load().plans(at: now)
        let weekly = try #require(plans.first { $0.variant?.variant == "weekly" })
        #expect(weekly.settings.schedule == .weekly)
        let control = plans.first { $0.variant?.variant == "control" }
        #expect(control == nil || control?.settings.schedule == .monthly)
    }

    @Test func changingTheSaltReshufflesUnits() throws {
        let folder = try ConfigFolder()
        let units = (0..<200).map { "u\($0)" }
        let experiment = try #require(try folder.load().experiments.first)
        var resalted = experiment
        resalted.assignment = .weights(salt: "2026-12")
        let moved = try units.filter { try experiment.assign(unit: unit($0), environment: "production", at: now).variant != resalted.assign(unit: unit($0), environment: "production", at: now).variant }
        #expect(moved.count > 50 && moved.count < 150)
    }

    @Test func variantSharesConvergeToTheWeights() throws {
        let folder = try ConfigFolder()
        try folder.write("experiments.yaml", """
            experiments:
              split:
                sources: [categories]
                variants:
                  a: { weight: 1 }
                  b: { weight: 3 }
                  c: { weight: 6 }
            """)
        let experiment = try #require(try folder.load().experiments.first)
        let units = 20_000
        var counts: [String: Int] = [:]
        for index in 0..<units { counts[try experiment.assign(unit: unit("store-\(index)/fr"), environment: "production", at: now).variant, default: 0] += 1 }
        for (variant, weight) in [("a", 0.1), ("b", 0.3), ("c", 0.6)] {
            let share = Double(counts[variant] ?? 0) / Double(units)
            #expect(abs(share - weight) < 0.015, "variant \(variant): \(share) for weight \(weight)")
        }
    }

    @Test func rolloutSharesConvergeToTheRollout() throws {
        let folder = try ConfigFolder()
        try folder.write("gates.yaml", "gates:\n  spotlight_index: { enabled: true, rollout: 25 }\n")
        let gate = try #require(try folder.load().gates["spotlight_index"])
        let on = (0..<20_000).filter { gate.evaluate(unit: unit("unit-\($0)"), environment: "production", at: now).isOn }.count
        #expect(abs(Double(on) / 20_000 - 0.25) < 0.015)
    }

    /// Fingerprints are stored with every success: one computed differently after an upgrade would reindex every
    /// unit. This pins the digest of the documented text, lines joined by newlines.
    @Test func theFingerprintIsTheDigestOfTheDocumentedLines() throws {
        let plans = try ConfigFolder(experiments: nil).load().plans(at: now)
        for (plan, partition) in zip(plans, ["us", "fr"]) {
            let text = [
                "plugin=test-feed", "domain=com.shop.categories.\(partition)", "expiration=\(45 * 86_400)", "deepLink=shop://category/{id}",
                #"options={"feed":"https://api.example.com/{partition}/categories.json"}"#,
            ].joined(separator: "\n")
            #expect(plan.fingerprint == ContentDigest.of(text))
        }
    }

    @Test func theFingerprintFollowsWhatShapesTheItems() throws {
        let folder = try ConfigFolder(experiments: nil)
        let base = try folder.load().plans(at: now)[0].fingerprint
        try folder.write("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "schedule: monthly", with: "schedule: weekly"))
        #expect(try folder.load().plans(at: now)[0].fingerprint == base, "the schedule is not part of it")
        try folder.write("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "options: { feed:", with: "options: { thumbnails: none, feed:"))
        #expect(try folder.load().plans(at: now)[0].fingerprint != base, "plugin options are")
        try folder.write("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "expiration: 45d", with: "expiration: 46d"))
        #expect(try folder.load().plans(at: now)[0].fingerprint != base, "the expiration is")
    }
}
