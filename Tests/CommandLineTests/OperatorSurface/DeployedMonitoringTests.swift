import Foundation
import SchedulerService
import Testing

/// `deploy/prometheus` and `deploy/grafana`: the alert rules pass `promtool check rules` and their own unit tests
/// (`promtool test rules`), and every metric the rules and the dashboard query is one the service exports.
@Suite("Alerts and dashboard, judged by promtool")
struct DeployedMonitoringTests {
    static let prometheus = repositoryRoot.appendingPathComponent("deploy/prometheus")
    static let dashboard = repositoryRoot.appendingPathComponent("deploy/grafana/scheduler.json")

    /// The metric names a PromQL text reads, histogram series folded into their family.
    static func metrics(in promQL: String) -> Set<String> {
        Set(promQL.matches(of: #/\b(scheduler_[a-z_]+)/#).map { match in
            let name = String(match.1)
            for suffix in ["_bucket", "_count", "_sum"] where name.hasSuffix(suffix) && MetricFamily(rawValue: name) == nil {
                return String(name.dropLast(suffix.count))
            }
            return name
        })
    }

    static let exported = Set(MetricFamily.allCases.map(\.name))

    @Test func theAlertRulesAreValidAndPassTheirUnitTests() async throws {
        let promtool = try ExternalTool("promtool", debianPackage: "prometheus")
        let check = try await promtool.run(["check", "rules", "alerts.yaml"], directory: Self.prometheus)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let tests = try await promtool.run(["test", "rules", "alerts.test.yaml"], directory: Self.prometheus)
        #expect(tests.status == 0, "\(tests.stdout)\(tests.stderr)")

        let rules = try String(contentsOf: Self.prometheus.appendingPathComponent("alerts.yaml"), encoding: .utf8)
        let expressions = rules.split(separator: "\n").filter { $0.contains("expr:") }.joined(separator: "\n")
        #expect(Self.metrics(in: expressions).subtracting(Self.exported).isEmpty, "rules read metrics the service does not export")
        for alert in ["SchedulerUnitFailing", "SchedulerUnitOverdue", "SchedulerUnitHeld", "SchedulerConfigReloadRefused", "SchedulerDown", "SchedulerDatabaseUnhealthy"] {
            #expect(rules.contains("alert: \(alert)\n"), "\(alert)")
        }
    }

    @Test func theDashboardIsValidAndQueriesOnlyExportedMetrics() async throws {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.dashboard)) as? [String: Any]
        let dashboard = try #require(json)
        #expect(dashboard["uid"] as? String == "reindex-scheduler")
        #expect((dashboard["schemaVersion"] as? Int ?? 0) >= 36)
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        #expect(Set(panels.compactMap { $0["id"] as? Int }).count == panels.count, "panel ids are unique")
        let variables = ((dashboard["templating"] as? [String: Any])?["list"] as? [[String: Any]]) ?? []
        #expect(variables.contains { $0["name"] as? String == "datasource" && $0["type"] as? String == "datasource" })

        var expressions: [String] = []
        for panel in panels {
            let title = panel["title"] as? String ?? "?"
            let grid = try #require(panel["gridPos"] as? [String: Int], "\(title)")
            #expect((grid["x"] ?? -1) >= 0 && (grid["x"] ?? 0) + (grid["w"] ?? 0) <= 24, "\(title) fits the 24-column grid")
            #expect((panel["datasource"] as? [String: String])?["uid"] == "${datasource}", "\(title) uses the datasource variable")
            let targets = try #require(panel["targets"] as? [[String: Any]], "\(title)")
            #expect(!targets.isEmpty, "\(title)")
            expressions += targets.compactMap { $0["expr"] as? String }
        }
        let queried = Self.metrics(in: expressions.joined(separator: "\n"))
        #expect(queried.subtracting(Self.exported).isEmpty, "the dashboard queries \(queried.subtracting(Self.exported).sorted()), which the service does not export")
        for needed in [MetricFamily.runs, .itemsIndexed, .itemsDeleted, .itemsRejected, .runDuration, .domainItems, .overdue] {
            #expect(queried.contains(needed.name), "the dashboard shows no \(needed.name)")
        }

        // Every query parses as PromQL: promtool checks them as recording rules, Grafana's variables given values.
        let substitutions = ["$__rate_interval": "5m", "$__interval": "1m", "$instance": ".*", "$source": ".*"]
        var rules = "groups:\n  - name: dashboard\n    rules:\n"
        for (index, expression) in expressions.enumerated() {
            let concrete = substitutions.reduce(expression) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
            let quoted = String(decoding: try JSONSerialization.data(withJSONObject: concrete, options: .fragmentsAllowed), as: UTF8.self)
            rules += "      - record: dashboard:query\(index)\n        expr: \(quoted)\n"
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try rules.write(to: folder.appendingPathComponent("queries.yaml"), atomically: true, encoding: .utf8)
        let check = try await ExternalTool("promtool", debianPackage: "prometheus").run(["check", "rules", "queries.yaml"], directory: folder)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// The units table's "since last success" is the time since a success, and nothing (shown "never") for a unit that
    /// has none, whose gauge is 0: not 57 years. Evaluated by `promtool test rules` on series given to it.
    @Test func sinceLastSuccessIsNothingForAUnitThatNeverSucceeded() async throws {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.dashboard)) as? [String: Any]
        let panels = try #require(json?["panels"] as? [[String: Any]])
        let expressions = panels.flatMap { ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String } }
        let since = try #require(expressions.first { $0.contains("scheduler_last_success_timestamp_seconds") && $0.hasPrefix("time() -") })
        let expression = since.replacingOccurrences(of: "$instance", with: ".*")
        let quoted = String(decoding: try JSONSerialization.data(withJSONObject: expression, options: .fragmentsAllowed), as: UTF8.self)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("since-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "groups:\n  - name: since\n    rules:\n      - record: since_last_success\n        expr: \(quoted)\n"
            .write(to: folder.appendingPathComponent("since.yaml"), atomically: true, encoding: .utf8)
        try """
            rule_files: [since.yaml]
            evaluation_interval: 1m
            tests:
              - interval: 1m
                input_series:
                  - series: 'scheduler_last_success_timestamp_seconds{unit="never", instance="a"}'
                    values: '0 0 0 0 0'
                  - series: 'scheduler_last_success_timestamp_seconds{unit="daily", instance="a"}'
                    values: '60 60 60 60 60'
                promql_expr_test:
                  - expr: since_last_success
                    eval_time: 4m
                    exp_samples:
                      - labels: 'since_last_success{unit="daily"}'
                        value: 180
            """.write(to: folder.appendingPathComponent("since.test.yaml"), atomically: true, encoding: .utf8)
        let test = try await ExternalTool("promtool", debianPackage: "prometheus").run(["test", "rules", "since.test.yaml"], directory: folder)
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(since.contains("> 0"))
        #expect(String(data: try Data(contentsOf: Self.dashboard), encoding: .utf8)?.contains(#""text": "never""#) == true, "the empty cell reads never")
    }
}
