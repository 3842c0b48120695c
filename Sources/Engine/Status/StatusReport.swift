public import SchedulerConfig
public import Foundation
public import Indexing
public import PluginAPI
public import Store

/// What the scheduler knows about every unit at one instant: the JSON of `scheduler status --json` and of the
/// service's `/status`.
public struct StatusReport: Sendable, Codable {
    /// One unit: what the config says of it now, and what the state remembers.
    public struct UnitStatus: Sendable, Codable {
        public var source: String
        public var unit: String
        public var domain: String
        /// `unknown` when the config did not load.
        public var gate: GateState
        public var gateReason: String?
        public var variant: String?
        /// Why the unit has its variant: its bucket, or what a flag served.
        public var variantReason: String?
        /// Items in the unit's domain now.
        public var items: Int
        public var lastSuccess: Date?
        public var lastAttempt: Date?
        /// `running`, `succeeded`, `failed` or `interrupted`.
        public var lastResult: UnitResult?
        public var lastError: String?
        /// Failures in a row since the last success.
        public var failures: Int
        /// No attempt before this instant: the backoff after a failure.
        public var backoffUntil: Date?
        /// Whether the next pass would reindex it, when the config loaded and its gate is on.
        public var due: Bool?
        public var dueReason: String?
        /// In UTC, as every instant of the report.
        public var nextDue: Date?
        /// The IANA zone the unit's schedule is read in, when it is not UTC.
        public var timeZone: String?
        /// When the schedule wants the next success, and whether that passed more than `service.overdueGrace` ago
        /// (see ``ScheduledDue``); absent while the gate is off.
        public var scheduledDue: Date?
        public var overdue: Bool?
        /// The kind of the next run when it is due: `full`, `incremental` or `resume`.
        public var dueMode: SyncMode?
        /// When the last successful incremental run finished.
        public var lastIncremental: Date?
        /// When the state handed to the next incremental run was committed (how old it is); `nil` when there is none.
        public var stateCommittedAt: Date?
        /// Whether its source is paused (``StatusReport/pausedSources`` says since when and by whom).
        public var paused = false
        /// How many seconds its source's `jitter` moves the unit's due instants; absent without a jitter.
        public var jitter: TimeInterval?
        /// While it runs: the items its run has committed so far (by its last checkpoint; a batch at a time).
        public var itemsSoFar: Int?
        /// Until when the purge of its domain can be undone by its gate turning on (it is, at the next pass, if the
        /// gate is on); absent when no such purge is pending.
        public var restorableUntil: Date?
    }

    /// Items in a domain that no configured unit covers: a source was removed or renamed. They stay until
    /// `scheduler purge --domain` removes them.
    public struct OrphanedDomain: Sendable, Codable, Hashable {
        public var domain: String
        public var items: Int
    }

    /// A `scheduler run` replica sharing the store (PostgreSQL).
    public struct ReplicaStatus: Sendable, Codable, Hashable {
        public var id: String
        public var configFingerprint: String
        public var startedAt: Date
        public var lastHeartbeat: Date
        /// The leases it holds now: the units it is running or purging.
        public var leases: [String]
    }

    /// Replicas whose last heartbeat is older than this are not compared (a killed one lingers until it restarts).
    public static let replicaComparisonWindow: TimeInterval = 15 * 60

    public var at: Date
    /// The fingerprint of the configuration the report was made with.
    public var configFingerprint: String?
    /// The replicas sharing the store, by id; absent for a store one machine owns (SQLite).
    public var replicas: [ReplicaStatus]?
    /// Set when replicas that beat within ``replicaComparisonWindow`` run configurations whose fingerprints differ.
    public var replicaWarning: String?
    /// The config folder's problems; when there are any, gates and due dates are `unknown`.
    public var configValid: Bool
    public var problems: [ConfigProblem]
    /// In the service: how many times a configuration was loaded and activated (SIGHUP and file changes
    /// increase it); absent from `scheduler status`.
    public var configGeneration: Int?
    /// In the service: why the last pass failed as a whole (database or lock unusable), until one succeeds.
    public var lastPassError: String?
    public var units: [UnitStatus]
    public var orphanedDomains: [OrphanedDomain]
    /// Purged domains whose rows are still being reclaimed (they are already gone from every search).
    public var pendingPurges: [PendingPurge] = []
    /// The sources operators paused, by name; a source no longer configured stays listed until it is resumed.
    public var pausedSources: [SourcePause] = []
    public var totalItems: Int

    /// The report as of `now`, from a configuration that loaded, or from the problems of one that did not.
    /// `watchingSince`: when the service started, from which a unit that never succeeded counts as due.
    public static func make(
        configuration: Result<SchedulerConfiguration, InvalidConfiguration>, store: any SchedulerStore, now: Date, watchingSince: Date? = nil
    ) async throws -> StatusReport {
        let counts = try await store.index.itemCountsByDomain()
        // A unit shown `running` whose process is gone (or, on a shared store, whose lease lapsed) was interrupted:
        // shown so, and due, as the next pass will see it.
        let live = try await store.leases?.liveLeases()
        let states = try await store.units().mapValues { state in
            guard let live else { return state.asSeenNow }
            return state.asSeenNow(runIsAlive: live.contains { $0.name == Lease.unitName(state.unit) })
        }
        func items(in domain: String) -> Int {
            counts.filter { DomainIdentifier.isWithin($0.key, domain) }.reduce(0) { $0 + $1.value }
        }
        func status(_ state: UnitState?, unit: String, source: String, domain: String) -> UnitStatus {
            UnitStatus(
                source: source, unit: unit, domain: domain, gate: .unknown, items: items(in: domain),
                lastSuccess: state?.lastSuccessAt, lastAttempt: state?.lastAttemptAt, lastResult: state?.lastResult,
                lastError: state?.lastError, failures: state?.failures ?? 0, backoffUntil: state?.retryAt.flatMap { $0 > now ? $0 : nil },
                lastIncremental: state?.lastIncrementalAt, stateCommittedAt: state?.syncStateAt, itemsSoFar: progress[unit]
            )
        }
        let progress = try await runProgress(states: states, index: store.index)
        var report = StatusReport(at: now, configValid: true, problems: [], units: [], orphanedDomains: [], totalItems: counts.values.reduce(0, +))
        report.pendingPurges = try await store.index.pendingPurges()
        let restorable = try await store.index.restorablePurges().filter { $0.value > now }
        let pauses = try await store.pausedSources()
        report.pausedSources = pauses.values.sorted { $0.source < $1.source }
        switch configuration {
        case .failure(let invalid):
            report.configValid = false
            report.problems = invalid.problems
            report.units = states.values.sorted { $0.unit < $1.unit }.map { status($0, unit: $0.unit, source: $0.source, domain: $0.domain) }
        case .success(let configuration):
            let plans = configuration.plans(at: now)
            report.units = plans.map { plan in
                let state = states[plan.unit.key]
                var unit = status(state, unit: plan.unit.key, source: plan.unit.source, domain: plan.unit.domain)
                unit.paused = pauses[plan.unit.source] != nil
                unit.restorableUntil = restorable[plan.unit.domain]
                unit.describe(plan, state: state, pause: pauses[plan.unit.source], now: now)
                if let scheduled = ScheduledDue.of(
                    plan: plan, state: state, now: now, grace: configuration.scheduler.overdueGrace, watchingSince: watchingSince, paused: unit.paused
                ) {
                    unit.scheduledDue = scheduled.at
                    unit.overdue = scheduled.isOverdue
                }
                return unit
            }
            report.orphanedDomains = orphans(counts: counts, configured: plans.map(\.unit.domain), remembered: states.values.map(\.domain))
            report.configFingerprint = configuration.fingerprint
        }
        if let leases = store.leases, let live {
            report.replicas = try await leases.replicas().map { replica in
                ReplicaStatus(
                    id: replica.id, configFingerprint: replica.configFingerprint, startedAt: replica.startedAt,
                    lastHeartbeat: replica.heartbeatAt, leases: live.filter { $0.holder == replica.id }.map(\.name)
                )
            }
            report.replicaWarning = replicaWarning(report.replicas ?? [], now: now)
        }
        return report
    }

    /// The items each running unit's run has committed so far, read from the checkpoint its last batch committed
    /// (only a checkpoint of the run going now: one left by an earlier run says nothing of this one).
    static func runProgress(states: [String: UnitState], index: any SearchIndex) async throws -> [String: Int] {
        var progress: [String: Int] = [:]
        for (key, state) in states where state.lastResult == .running {
            progress[key] = try await UnitReindex.Checkpoint.ofAttempt(state, index: index)?.committedItems ?? 0
        }
        return progress
    }

    /// Which recent replicas run which configuration, when they do not all run the same one.
    static func replicaWarning(_ replicas: [ReplicaStatus], now: Date) -> String? {
        let recent = replicas.filter { now.timeIntervalSince($0.lastHeartbeat) <= replicaComparisonWindow }
        let byFingerprint = Dictionary(grouping: recent, by: \.configFingerprint)
        guard byFingerprint.count > 1 else { return nil }
        let groups = byFingerprint.sorted { $0.key < $1.key }.map { "\($0.key) on \($0.value.map(\.id).sorted().joined(separator: ", "))" }
        return "replicas run different configurations: " + groups.joined(separator: "; ") + "; deploy the same config folder to every replica"
    }

    /// The domains holding items outside every configured unit's domain, each rolled up to the remembered
    /// unit domain that covers it when there is one.
    static func orphans(counts: [String: Int], configured: [String], remembered: [String]) -> [OrphanedDomain] {
        var orphans: [String: Int] = [:]
        for (domain, count) in counts where !configured.contains(where: { DomainIdentifier.isWithin(domain, $0) }) {
            let owner = remembered.filter { DomainIdentifier.isWithin(domain, $0) }.min { $0.count < $1.count } ?? domain
            orphans[owner, default: 0] += count
        }
        return orphans.map { OrphanedDomain(domain: $0.key, items: $0.value) }.sorted { $0.domain < $1.domain }
    }
}
