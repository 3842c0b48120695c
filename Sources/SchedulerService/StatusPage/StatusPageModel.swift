import Engine
import Foundation
import Indexing
import PluginAPI
import SchedulerConfig
import Store

/// What the status page shows, as text ready for the template: every value here is escaped when rendered, and
/// nothing from a source's options or a plugin's environment is in it.
struct StatusPageModel {
    struct Summary {
        var units: Int
        var due: Int
        var failing: Int
        var overdue: Int
        var running: Int
        var paused: Int
        var items: Int
        // Stored, not computed: the template reads values through reflection, which sees stored properties only.
        var anyFailing: Bool
        var anyOverdue: Bool
        /// Which chip's units the table shows alone, if one's: `failing`, `overdue`, `running`, `due` or `paused`.
        var showing: String?
        var showingAll: Bool

        init(units: Int, due: Int, failing: Int, overdue: Int, running: Int, paused: Int, items: Int, showing: UnitTrouble?) {
            (self.units, self.due, self.failing, self.overdue, self.running, self.paused, self.items) = (units, due, failing, overdue, running, paused, items)
            (anyFailing, anyOverdue) = (failing > 0, overdue > 0)
            (self.showing, showingAll) = (showing?.rawValue, showing == nil)
        }
    }

    struct GateRow {
        var name: String
        /// `yes`, `no`, or `by flag` for a gate a flagd flag decides.
        var enabled: String
        var rollout: String
        var environments: String
        /// Under the name: the window, or the flag and its file.
        var window: String?
    }

    struct ExperimentRow {
        var name: String
        var sources: String
        var variants: String
    }

    struct PurgeRow {
        var domain: String
        var purged: Moment
        var items: Int
        var rowsLeft: Int
        /// Until when turning its gate on again undoes it; `nil` when it is final.
        var restorable: Moment?
        /// Where a console action on it returns: the status page.
        var link = "/"
    }

    struct ReplicaRow {
        var id: String
        var heartbeat: Moment
        var leases: String
    }

    var generatedAt: String
    var environment: String
    var configGeneration: Int?
    var configProblems: [String]
    var lastPassError: String?
    var replicaWarning: String?
    var summary: Summary
    var units: [UnitRow]
    var gates: [GateRow]
    var experiments: [ExperimentRow]
    var orphans: [StatusReport.OrphanedDomain]
    var purges: [PurgeRow]
    var runs: [RunRow]
    var replicas: [ReplicaRow]
    /// The queries that found nothing most often in the last 7 days: what the index lacks.
    var queriesWithoutHits: [SearchAnalytics.Query]
    var hasQueriesWithoutHits: Bool
    var hasConfigProblems: Bool
    var hasOrphans: Bool
    var hasPurges: Bool
    var hasReplicas: Bool
    var console: ConsoleView
    var notice: String?

    /// The page of `report`, its units in order of trouble (``UnitTrouble``), only those of `showing` when asked.
    init(
        report: StatusReport, configuration: SchedulerConfiguration, runs: [RunRecord], queriesWithoutHits: [SearchAnalytics.Query] = [],
        showing: UnitTrouble? = nil, console: ConsoleView = ConsoleView(available: false, session: nil), notice: String? = nil
    ) {
        self.console = console
        self.notice = notice
        self.queriesWithoutHits = queriesWithoutHits
        hasQueriesWithoutHits = !queriesWithoutHits.isEmpty
        let now = report.at
        func moment(_ date: Date) -> Moment { Moment(date, now: now) }
        generatedAt = Moment.utc(now)
        environment = configuration.scheduler.environment
        configGeneration = report.configGeneration
        configProblems = report.problems.map(\.description)
        lastPassError = report.lastPassError
        replicaWarning = report.replicaWarning
        let every = report.units.enumerated().map { position, unit in (position, UnitRow(unit, now: now)) }
        // Trouble first, config order within each kind.
        units = every.sorted { ($0.1.trouble, $0.0) < ($1.1.trouble, $1.0) }.map(\.1).filter { showing == nil || $0.trouble == showing }
        summary = Summary(
            units: every.count, due: report.units.filter { $0.due == true }.count, failing: every.filter(\.1.isFailing).count,
            overdue: every.filter(\.1.isOverdue).count, running: every.filter { $0.1.trouble == .running }.count,
            paused: every.filter(\.1.isPaused).count, items: report.totalItems,
            showing: showing
        )
        gates = configuration.gates.values.sorted { $0.name < $1.name }.map { gate in
            switch gate.decider {
            case .flag(let binding):
                return GateRow(name: gate.name, enabled: "by flag", rollout: "–", environments: "–", window: "flag \(binding.flag) in \(binding.file)")
            case .rules(let rules):
                let window = [rules.from.map { "from \(Moment.utc($0))" }, rules.until.map { "until \(Moment.utc($0))" }].compactMap { $0 }
                return GateRow(
                    name: gate.name, enabled: rules.enabled ? "yes" : "no",
                    rollout: "\(rules.rollout.formatted(.number.precision(.fractionLength(0...2))))%",
                    environments: rules.environments?.joined(separator: ", ") ?? "all", window: window.isEmpty ? nil : window.joined(separator: " ")
                )
            }
        }
        experiments = configuration.experiments.map { experiment in
            let variants: String
            switch experiment.assignment {
            case .flag(let binding):
                variants = experiment.variants.map(\.name).joined(separator: " · ") + " (flag \(binding.flag) in \(binding.file))"
            case .weights:
                let total = max(experiment.variants.reduce(0) { $0 + $1.weight }, 1)
                variants = experiment.variants.map { "\($0.name) \($0.weight * 100 / total)%" }.joined(separator: " · ")
            }
            return ExperimentRow(name: experiment.name, sources: experiment.sources.joined(separator: ", "), variants: variants)
        }
        orphans = report.orphanedDomains
        purges = report.pendingPurges.map { purge in
            PurgeRow(
                domain: purge.domain, purged: moment(purge.purgedAt), items: purge.purgedItems, rowsLeft: purge.rowsLeft,
                restorable: purge.restorableUntil.flatMap { $0 > now ? moment($0) : nil }
            )
        }
        self.runs = runs.map { RunRow($0, now: now) }
        replicas = (report.replicas ?? []).map { replica in
            ReplicaRow(
                id: replica.id, heartbeat: moment(replica.lastHeartbeat),
                leases: replica.leases.isEmpty ? "none" : replica.leases.joined(separator: ", ")
            )
        }
        (hasConfigProblems, hasOrphans, hasPurges, hasReplicas) = (!configProblems.isEmpty, !orphans.isEmpty, !purges.isEmpty, !replicas.isEmpty)
    }
}
