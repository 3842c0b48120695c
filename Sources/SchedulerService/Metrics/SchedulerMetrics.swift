import Engine
import Metrics
import PluginAPI
import SchedulerConfig
import Store

/// The service's metrics, through swift-metrics (the executable chooses the backend: Prometheus).
public struct SchedulerMetrics: Sendable {
    public init() {}

    /// Counts one pass's runs, items and durations, by source and result.
    func record(_ outcomes: [UnitOutcome]) {
        for outcome in outcomes where [.reindexed, .failed, .purged].contains(outcome.decision) {
            Counter(label: "scheduler_runs_total", dimensions: [("source", outcome.source), ("result", outcome.decision.rawValue)]).increment()
            Counter(label: "scheduler_items_indexed_total", dimensions: [("source", outcome.source)]).increment(by: outcome.indexed)
            Counter(label: "scheduler_items_deleted_total", dimensions: [("source", outcome.source)]).increment(by: outcome.deleted)
            Counter(label: "scheduler_items_rejected_total", dimensions: [("source", outcome.source)]).increment(by: outcome.rejected)
            Timer(label: "scheduler_run_duration_seconds", dimensions: [("source", outcome.source)], preferredDisplayUnit: .seconds)
                .record(duration: outcome.duration)
        }
    }

    /// Sets the gauges that describe the index now: items per unit domain, last success per unit.
    func recordLevels(store: any SchedulerStore, configuration: SchedulerConfiguration) async throws {
        let states = try await store.units()
        for unit in configuration.units {
            let items = try await store.index.itemCount(inDomain: unit.domain)
            Gauge(label: "scheduler_domain_items", dimensions: [("domain", unit.domain)]).record(items)
            if let success = states[unit.key]?.lastSuccessAt {
                Gauge(label: "scheduler_last_success_timestamp_seconds", dimensions: [("unit", unit.key)]).record(success.timeIntervalSince1970)
            }
        }
    }

    /// Counts a pass that failed as a whole (database or lock unusable), not a unit's failed run.
    func passFailed() {
        Counter(label: "scheduler_pass_failures_total").increment()
    }

    func configReloadFailed() {
        Counter(label: "scheduler_config_reload_failures_total").increment()
    }
}
