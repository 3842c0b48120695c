import ArgumentParser
import SchedulerConfig
import Engine
import Foundation
import PluginAPI
import Store

/// `scheduler status`: every unit's gate, items, last success and attempt, next due date and backoff.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show every unit: gate, variant, items, last success, last attempt, next due, backoff; config problems; orphaned domains.",
        discussion: """
            With an invalid configuration the units the database remembers are still shown, their gates as unknown, \
            with the problems. Orphaned domains hold items no configured source covers; `scheduler purge --domain` \
            removes them. Exits 0 when the report could be made, whatever it says.
            """
    )

    @Flag(help: "Print one JSON object {at, configValid, problems, units, orphanedDomains, totalItems} instead of text.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let configuration = Result { () throws(InvalidConfiguration) in try store.config.loader.load() }
        let report = try await store.withStore(logger: CommandLogger.make()) { opened in
            try await StatusReport.make(configuration: configuration, store: opened, now: Date())
        }
        if json { return try JSONOutput.print(report) }

        for problem in report.problems { print("config problem: \(store.config.located(problem))") }
        if !report.configValid { print("the configuration does not load: showing the units the database remembers") }
        for unit in report.units {
            var line = "\(unit.unit)  \(unit.domain)  gate \(unit.gate)"
            if let variant = unit.variant { line += "  variant \(variant)" }
            line += "  \(unit.items) items"
            if unit.paused { line += "  paused" }
            print(line)
            print("  last success \(Self.date(unit.lastSuccess)); last attempt \(Self.date(unit.lastAttempt)) \(unit.lastResult?.rawValue ?? "")")
            if let incremental = unit.lastIncremental { print("  last incremental run \(Self.date(incremental))") }
            if let state = unit.stateCommittedAt { print("  state committed \(Self.date(state))") }
            if let error = unit.lastError { print("  error: \(error)") }
            if let until = unit.backoffUntil { print("  backing off after \(unit.failures) failure(s) until \(ISO8601.string(from: until))") }
            if let due = unit.due, let reason = unit.dueReason {
                print("  \(due ? "due now\(unit.dueMode.map { " (\($0.rawValue))" } ?? "")" : "not due"): \(reason)")
            }
            if unit.overdue == true, let since = unit.scheduledDue {
                print("  overdue: no success since it was due at \(ISO8601.string(from: since)), longer ago than service.overdueGrace")
            }
            if let jitter = unit.jitter { print("  jitter: its due instants are moved by \(DurationText.format(.seconds(Int64(jitter))))") }
            if let next = unit.nextDue, let identifier = unit.timeZone, let zone = TimeZone(identifier: identifier) {
                print("  next due \(ISO8601.string(from: next)), \(Self.local(next, in: zone)) \(identifier)")
            }
        }
        for orphan in report.orphanedDomains {
            print("orphaned domain \(orphan.domain): \(orphan.items) items no configured source covers (scheduler purge --domain \(orphan.domain))")
        }
        for purge in report.pendingPurges {
            let restorable = purge.restorableUntil.flatMap { $0 > report.at ? $0 : nil }.map {
                "; restorable until \(Self.date($0)) if its gate turns on again (scheduler purge --domain \(purge.domain) makes it final now)"
            } ?? ""
            print("purge of \(purge.domain) (\(Self.date(purge.purgedAt))): its \(purge.purgedItems) items are gone from search; \(purge.rowsLeft) rows left to reclaim\(restorable)")
        }
        for pause in report.pausedSources {
            print("source \(pause.source) paused since \(Self.date(pause.pausedAt)) by \(pause.pausedBy) (scheduler resume --source \(pause.source))")
        }
        for replica in report.replicas ?? [] {
            let leases = replica.leases.isEmpty ? "" : "; holds \(replica.leases.joined(separator: ", "))"
            print("replica \(replica.id)  config \(replica.configFingerprint)  last heartbeat \(Self.date(replica.lastHeartbeat))\(leases)")
        }
        if let warning = report.replicaWarning { print("warning: \(warning)") }
        print("total \(report.totalItems) items")
    }

    private static func date(_ date: Date?) -> String { date.map(ISO8601.string(from:)) ?? "never" }

    /// `date` as the wall clock of `zone` shows it: `2027-01-11 03:00`.
    private static func local(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0)
    }
}
