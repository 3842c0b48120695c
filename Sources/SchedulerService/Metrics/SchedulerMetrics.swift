import Engine
import Foundation
import Indexing
import Metrics
import PluginAPI
import SchedulerConfig
import Store
import Synchronization

/// The service's metrics, through swift-metrics (the executable chooses the backend: Prometheus). Every family of
/// ``MetricFamily`` has its series from the first scrape: zeros for the configured sources, levels for the
/// configured units; a unit or domain removed from the config loses its series, so nothing alerts on it.
/// Overdue is a matter of time, not of passes: it is recomputed at every scrape from the due instants of the last
/// pass (``refreshOverdue(now:)``), so a unit turns overdue while the service sleeps until its next tick.
public final class SchedulerMetrics: Sendable {
    /// What the last levels recorded: the units and domains with series, and when each unit is due.
    private struct Published {
        var units: Set<String> = []
        var domains: Set<String> = []
        var dueAt: [String: Date] = [:]
        var grace: TimeInterval = 0
    }

    private let published = Mutex(Published())
    /// The searches without the search structures counted so far (``recordSearchPostings(rows:searchesWithoutThem:)``).
    private let searchesWithoutThemCounted = Mutex(0)

    /// The decisions `scheduler_runs_total` counts: runs that did something.
    static let countedDecisions: [RunDecision] = [.reindexed, .failed, .purged, .restored, .cancelled, .missed]

    /// Call after swift-metrics is bootstrapped: the last pass's instant reads 0 until a pass finishes.
    public init() {
        Gauge(label: MetricFamily.lastPass.name).record(0)
        Gauge(label: MetricFamily.purgesRestorable.name).record(0)
    }

    /// Creates every series the configuration implies with its zero, and marks the configuration in force as the
    /// config folder's: call at start and after every accepted reload.
    func prepare(for configuration: SchedulerConfiguration) {
        Gauge(label: MetricFamily.configLastReloadSuccessful.name).record(1)
        _ = Counter(label: MetricFamily.configReloadFailures.name)
        _ = Counter(label: MetricFamily.passFailures.name)
        _ = Counter(label: MetricFamily.opens.name)
        _ = Counter(label: MetricFamily.searchesWithoutPostings.name)
        for result in ["hits", "none"] {
            _ = Counter(label: MetricFamily.searches.name, dimensions: [("result", result)])
        }
        for configured in configuration.scheduler.sources {
            let source = configured.name
            let modes = configured.settings.incremental == nil ? [SyncMode.full] : [.full, .incremental]
            for result in Self.countedDecisions {
                for mode in modes where mode == .full || ![.purged, .restored].contains(result) {
                    _ = Counter(label: MetricFamily.runs.name, dimensions: [("source", source), ("result", result.rawValue), ("mode", mode.rawValue)])
                }
            }
            for family in [MetricFamily.itemsIndexed, .itemsUnchanged, .itemsDeleted, .itemsRejected] {
                _ = Counter(label: family.name, dimensions: [("source", source)])
            }
            _ = Timer(label: MetricFamily.runDuration.name, dimensions: [("source", source)], preferredDisplayUnit: .seconds)
        }
    }

    /// Counts one pass's runs, items and durations, by source and result.
    func record(_ outcomes: [UnitOutcome]) {
        for outcome in outcomes where Self.countedDecisions.contains(outcome.decision) {
            let source = [("source", outcome.source)]
            Counter(label: MetricFamily.runs.name, dimensions: source + [("result", outcome.decision.rawValue), ("mode", outcome.mode.rawValue)]).increment()
            Counter(label: MetricFamily.itemsIndexed.name, dimensions: source).increment(by: outcome.indexed)
            Counter(label: MetricFamily.itemsUnchanged.name, dimensions: source).increment(by: outcome.unchanged)
            Counter(label: MetricFamily.itemsDeleted.name, dimensions: source).increment(by: outcome.deleted)
            Counter(label: MetricFamily.itemsRejected.name, dimensions: source).increment(by: outcome.rejected)
            Timer(label: MetricFamily.runDuration.name, dimensions: source, preferredDisplayUnit: .seconds).record(duration: outcome.duration)
        }
    }

    /// Records a pass that finished without failing as a whole, and the unit levels after it: of every unit after a
    /// pass that decided each, of the units it decided after a pass that left the others settled (their levels did
    /// not change). Domains are counted again only when the pass wrote or deleted items: counting is a range scan, and
    /// most passes change nothing.
    func passFinished(
        _ result: PassResult, store: any SchedulerStore, configuration: SchedulerConfiguration, at now: Date, watchingSince: Date
    ) async throws {
        let changed = result.outcomes.contains { $0.indexed + $0.deleted > 0 || [.purged, .restored].contains($0.decision) }
        let restorable = try await store.index.restorablePurges().values.filter { $0 > now }.count
        Gauge(label: MetricFamily.purgesRestorable.name).record(restorable)
        try await recordLevels(
            store: store, configuration: configuration, now: now, watchingSince: watchingSince, recountingItems: changed,
            only: result.settledUnits == 0 ? nil : result.decidedPlans
        )
        Gauge(label: MetricFamily.lastPass.name).record(now.timeIntervalSince1970)
    }

    /// Sets the gauges that describe the units now: items per domain (counted when `recountingItems`, or when a
    /// domain has no gauge yet), last success, next due, failures in a row, overdue, held. With `only`, of the units
    /// of those plans alone, each state read by itself; the others keep their gauges.
    func recordLevels(
        store: any SchedulerStore, configuration: SchedulerConfiguration, now: Date, watchingSince: Date, recountingItems: Bool = true,
        only: [UnitPlan]? = nil
    ) async throws {
        if only?.isEmpty == true { return }
        let counted = published.withLock { $0.domains }
        let plans = only ?? configuration.plans(at: now)
        var states: [String: UnitState] = [:]
        if only == nil {
            states = try await store.units()
        } else {
            for plan in plans { states[plan.unit.key] = try await store.unit(plan.unit.key) }
        }
        let pauses = try await store.pausedSources()
        var units: Set<String> = [], domains: Set<String> = [], dueAt: [String: Date] = [:]
        for plan in plans {
            let key = plan.unit.key, unit = [("unit", key)]
            let state = states[key]
            units.insert(key)
            domains.insert(plan.unit.domain)
            if recountingItems || !counted.contains(plan.unit.domain) {
                let items = try await store.index.itemCount(inDomain: plan.unit.domain)
                Gauge(label: MetricFamily.domainItems.name, dimensions: [("domain", plan.unit.domain)]).record(items)
            }
            Gauge(label: MetricFamily.consecutiveFailures.name, dimensions: unit).record(state?.failures ?? 0)
            Gauge(label: MetricFamily.lastSuccess.name, dimensions: unit).record(state?.lastSuccessAt?.timeIntervalSince1970 ?? 0)
            Gauge(label: MetricFamily.stateCommitted.name, dimensions: unit).record(state?.syncStateAt?.timeIntervalSince1970 ?? 0)
            let scheduled = ScheduledDue.of(
                plan: plan, state: state, now: now, grace: configuration.scheduler.overdueGrace, watchingSince: watchingSince,
                paused: pauses[plan.unit.source] != nil
            )
            if let due = scheduled?.at {
                dueAt[key] = due
                Gauge(label: MetricFamily.nextDue.name, dimensions: unit).record(due.timeIntervalSince1970)
            } else {
                Gauge(label: MetricFamily.nextDue.name, dimensions: unit).destroy()
            }
            Gauge(label: MetricFamily.overdue.name, dimensions: unit).record(scheduled?.isOverdue == true ? 1 : 0)
            Gauge(label: MetricFamily.held.name, dimensions: unit).record(plan.gateDecision.state == .unknown ? 1 : 0)
            Gauge(label: MetricFamily.paused.name, dimensions: unit).record(pauses[plan.unit.source] != nil ? 1 : 0)
        }
        let grace = configuration.scheduler.overdueGrace
        let (goneUnits, goneDomains) = published.withLock { published in
            guard only == nil else {
                // Of some units: the others' levels stand.
                published.units.formUnion(units)
                published.domains.formUnion(domains)
                for key in units { published.dueAt[key] = dueAt[key] }
                return (Set<String>(), Set<String>())
            }
            defer {
                published = Published(units: units, domains: domains, dueAt: dueAt, grace: grace.seconds)
            }
            return (published.units.subtracting(units), published.domains.subtracting(domains))
        }
        for key in goneUnits {
            for family in [MetricFamily.lastSuccess, .nextDue, .consecutiveFailures, .overdue, .held, .paused, .stateCommitted] {
                Gauge(label: family.name, dimensions: [("unit", key)]).destroy()
            }
        }
        for domain in goneDomains {
            Gauge(label: MetricFamily.domainItems.name, dimensions: [("domain", domain)]).destroy()
        }
    }

    /// Sets each unit's overdue gauge as of `now`, from the due instants the last levels recorded: call before a scrape.
    func refreshOverdue(now: Date) {
        let published = published.withLock { $0 }
        for unit in published.units {
            let overdue = published.dueAt[unit].map { now.timeIntervalSince($0) > published.grace } ?? false
            Gauge(label: MetricFamily.overdue.name, dimensions: [("unit", unit)]).record(overdue ? 1 : 0)
        }
    }

    /// Records whether the store answered a health check, just before a scrape.
    func recordDatabaseHealth(_ healthy: Bool) {
        Gauge(label: MetricFamily.databaseHealthy.name).record(healthy ? 1 : 0)
    }

    /// Records how many rows the index's search structures hold, and the searches that went without them so far,
    /// just before a scrape.
    func recordSearchPostings(rows: Int, searchesWithoutThem: Int) {
        Gauge(label: MetricFamily.searchPostingsRows.name).record(rows)
        let counted = searchesWithoutThemCounted.withLock { counted in
            defer { counted = max(counted, searchesWithoutThem) }
            return counted
        }
        if searchesWithoutThem > counted {
            Counter(label: MetricFamily.searchesWithoutPostings.name).increment(by: searchesWithoutThem - counted)
        }
    }

    /// Counts a search answered, by whether it found anything.
    func recordSearch(found: Bool) {
        Counter(label: MetricFamily.searches.name, dimensions: [("result", found ? "hits" : "none")]).increment()
    }

    /// Counts an open of a result that `/open` counted.
    func recordOpen() {
        Counter(label: MetricFamily.opens.name).increment()
    }

    /// Counts a pass that failed as a whole (database or lock unusable), not a unit's failed run.
    func passFailed() {
        Counter(label: MetricFamily.passFailures.name).increment()
    }

    /// Counts a refused change of the config folder; the configuration in force is no longer the folder's.
    func configReloadFailed() {
        Counter(label: MetricFamily.configReloadFailures.name).increment()
        Gauge(label: MetricFamily.configLastReloadSuccessful.name).record(0)
    }
}
