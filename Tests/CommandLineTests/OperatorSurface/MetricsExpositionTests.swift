import Foundation
import SchedulerService
import Testing

/// `/metrics` of a real `scheduler run`, judged by Prometheus's own `promtool check metrics`: every family described
/// from the first scrape, the unit gauges alerting needs, and docs/operating.md listing exactly what is exported.
@Suite("Metrics, judged by promtool")
struct MetricsExpositionTests {
    /// `promtool check metrics` on `text`: its complaints, empty when it accepts the text.
    static func promtoolComplaints(_ text: String) async throws -> String {
        let outcome = try await ExternalTool("promtool", debianPackage: "prometheus").run(["check", "metrics"], input: Data(text.utf8))
        return outcome.status == 0 ? "" : "status \(outcome.status): " + outcome.stdout + outcome.stderr
    }

    @Test func everyFamilyIsDescribedAndPresentFromTheFirstScrape() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a WAIT b")  // the first pass waits inside the plugin: scrapes happen before any run ends
        let service = try await RunningService(setup.config)

        #expect(try await eventually { try await service.request("/metrics").body.contains(#"scheduler_unit_overdue{unit="docs"} 0"#) })
        let first = try await service.request("/metrics").body
        for family in MetricFamily.allCases {
            #expect(first.contains("# HELP \(family.name) \(family.help)\n"), "\(family.name) has no help text")
            #expect(first.contains("# TYPE \(family.name) \(family.kind.rawValue)\n"), "\(family.name) is not exported from the first scrape")
        }
        for zero in [
            "scheduler_config_reload_failures_total 0", "scheduler_pass_failures_total 0", #"scheduler_runs_total{source="docs",result="failed",mode="full"} 0"#,
            #"scheduler_items_rejected_total{source="docs"} 0"#, #"scheduler_run_duration_seconds_count{source="docs"} 0"#,
            "scheduler_last_pass_timestamp_seconds 0", #"scheduler_unit_consecutive_failures{unit="docs"} 0"#, "scheduler_config_last_reload_successful 1",
            "scheduler_database_healthy 1", #"scheduler_unit_held{unit="docs"} 0"#,
        ] {
            #expect(first.contains(zero + "\n") || first.contains(zero + ".0\n"), "no '\(zero)' in the first scrape:\n\(first)")
        }
        #expect(try await Self.promtoolComplaints(first) == "")

        try setup.workspace.write("release", "")
        #expect(try await eventually { try await service.request("/metrics").body.contains(#"scheduler_runs_total{source="docs",result="reindexed",mode="full"} 1"#) })
        let after = try await service.request("/metrics").body
        #expect(after.contains(#"scheduler_items_indexed_total{source="docs"} 2"#))
        #expect(after.contains(#"scheduler_domain_items{domain="com.test.docs"} 2"#))
        let nextDue = try #require(Self.value(of: #"scheduler_next_due_timestamp_seconds{unit="docs"}"#, in: after))
        #expect(nextDue > Date().addingTimeInterval(25 * 86_400).timeIntervalSince1970, "a monthly unit that just succeeded is due in a month")
        #expect(try #require(Self.value(of: "scheduler_last_pass_timestamp_seconds", in: after)) > 0)
        #expect(try await Self.promtoolComplaints(after) == "")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func aUnitThatKeepsFailingTurnsOverdueWhileTheServiceSleeps() async throws {
        let setup = try SourceWorkspace()
        try setup.editConfig(replacing: "service: { tick: 1h, listen: 127.0.0.1:0 }", with: "service: { tick: 1h, listen: 127.0.0.1:0, overdueGrace: 2s }")
        try setup.writeScript("#!/bin/sh\necho 'the feed is unreachable' >&2\nexit 3\n")
        let service = try await RunningService(setup.config)

        #expect(try await eventually { try await service.request("/metrics").body.contains(#"scheduler_unit_consecutive_failures{unit="docs"} 1"#) })
        // No pass runs before the hour's tick; the grace runs out meanwhile, and the next scrape says so.
        #expect(try await eventually { try await service.request("/metrics").body.contains(#"scheduler_unit_overdue{unit="docs"} 1"#) })
        let status = try await service.json("/status")
        let unit = try #require((status["units"] as? [[String: Any]])?.first)
        #expect(unit["overdue"] as? Bool == true, "\(unit)")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func theOperatorsGuideListsExactlyTheExportedFamilies() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/operating.md"), encoding: .utf8)
        // The rows of the guide's metrics table: | `name` | type | labels | meaning |
        let rows = readme.split(separator: "\n").compactMap { line -> (String, String, String)? in
            guard let match = line.wholeMatch(of: #/\| `(scheduler_[a-z_]+)` \| (counter|gauge|histogram) \| ([a-z, ]*) \|.*/#) else { return nil }
            return (String(match.1), String(match.2), String(match.3))
        }
        #expect(rows.map(\.0).sorted() == MetricFamily.allCases.map(\.name).sorted())
        for (name, kind, labels) in rows {
            let family = try #require(MetricFamily(rawValue: name))
            #expect(kind == family.kind.rawValue, "\(name)")
            #expect(labels == family.labels.joined(separator: ", "), "\(name)")
        }
    }

    static func value(of series: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.dropFirst(series.count + 1)) }
    }
}
