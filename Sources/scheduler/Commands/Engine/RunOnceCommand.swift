import ArgumentParser
import Engine
import Foundation
import HostSupport
import Logging
import PluginAPI
import SchedulerConfig
import SchedulerService
import ServiceLifecycle
import Store

/// `scheduler run-once`: one reconcile pass over every unit, as the service runs on each tick.
struct RunOnceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run-once",
        abstract: "Run one reconcile pass: purge units whose gate is off, reindex the units that are due, sweep expired items.",
        discussion: """
            Exit status: 0 when no unit failed; 1 when a unit failed (its previous items and last-indexed date are kept, \
            and it backs off); 2 when the configuration is invalid (nothing runs, nothing is purged); 3 when another \
            pass holds the database's lock (busy: this command does not wait); 4 when SIGTERM or SIGINT stopped the \
            pass at a batch boundary (the unit in progress keeps its previous success and is redone by the next pass).
            """
    )

    @Option(name: .customLong("source"), help: ArgumentHelp("Only this source (repeatable); all sources by default.", valueName: "name"))
    var sources: [String] = []

    @Flag(help: "Reindex every unit whose gate is on, due or not, and allow deleting more than maxDeleteRatio.")
    var force = false

    @Flag(help: "Run an incremental sync of every unit whose gate is on and whose plugin runs them, due or not, from the state its last success committed (a unit without one is skipped, saying so).")
    var incremental = false

    @Flag(help: "Decide and report, touching nothing.")
    var dryRun = false

    @OptionGroup var instant: InstantOptions

    @Option(help: ArgumentHelp("Items per committed batch (1–100000).", valueName: "n"))
    var batchSize = ReconcilePass.Options.defaultBatchSize

    @Option(help: ArgumentHelp("Units run at once (1–64; default: service.concurrency, 4 unless set).", valueName: "n"))
    var concurrency: Int?

    @Flag(help: "Print one JSON object {units} instead of text.")
    var json = false

    @OptionGroup var log: LogOptions
    @OptionGroup var config: ConfigOptions
    @OptionGroup var replica: ReplicaOptions

    func validate() throws {
        guard (1...100_000).contains(batchSize) else { throw ValidationError("--batch-size must be between 1 and 100000") }
        if let concurrency, !(1...SchedulerSettings.maxConcurrency).contains(concurrency) {
            throw ValidationError("--concurrency must be between 1 and \(SchedulerSettings.maxConcurrency)")
        }
        if force, incremental { throw ValidationError("--force runs full syncs and --incremental incremental ones: choose one") }
    }

    func run() async throws {
        // Plugins are its children: they cannot read its environment block or memory.
        AdminToken.hideSecrets()
        let configuration = try config.loadOrExit()
        let known = configuration.scheduler.sources.map(\.name)
        if let unknown = sources.first(where: { !known.contains($0) }) {
            throw ValidationError("--source '\(unknown)' is not a source of \(config.directory)\(NearestName.suggestion(for: unknown, among: known)); the sources are \(known.joined(separator: ", "))")
        }
        let clock: any WallClock = instant.instant(in: configuration.scheduler.defaultTimeZone).map(FixedWallClock.init) ?? SystemWallClock()
        let logger = log.makeLogger(defaultLevel: .warning)
        let outcomes = try await CommandSignals.exitingWhenStopped(
            "the pass ended: committed batches stay, the unit in progress keeps its previous success and is redone by the next pass"
        ) {
            dryRun
                ? try await pass(configuration, clock: clock, logger: logger)
                : try await PassLock.withPassOrExit(localFilesPath: configuration.scheduler.localFilesPath(replicaID: replica.id)) {
                    try await pass(configuration, clock: clock, logger: logger)
                }
        }
        if json {
            struct Output: Encodable { var units: [UnitOutcome] }
            try JSONOutput.print(Output(units: outcomes))
        } else {
            outcomes.forEach { print(Self.describe($0)) }
            if outcomes.isEmpty { print("no unit matched") }
        }
        if outcomes.contains(where: { $0.decision == .failed }) { throw ExitCode(1) }
    }

    /// The pass the options ask for, then the reclaim of what it purged.
    private func pass(_ configuration: SchedulerConfiguration, clock: any WallClock, logger: Logger) async throws -> [UnitOutcome] {
        var settings = configuration.scheduler
        // A dry run touches nothing, not even to create a missing database file: it decides against an empty one.
        var scratch: URL?
        if dryRun, case .sqlite(let path) = settings.store, !FileManager.default.fileExists(atPath: path) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scheduler-dry-run-\(UUID().uuidString)")
            settings.store = .sqlite(path: folder.appendingPathComponent("index.sqlite").path)
            settings.localFilesPath = folder.appendingPathComponent("index.sqlite").path
            scratch = folder
        }
        defer { scratch.map { try? FileManager.default.removeItem(at: $0) } }
        var chosen = ReconcilePass.Options(
            force: force ? .full : incremental ? .incremental : nil, dryRun: dryRun, sources: sources.isEmpty ? nil : Set(sources), batchSize: batchSize,
            replica: replica.name.id, leaseDuration: settings.leaseDuration
        )
        chosen.concurrency = concurrency ?? settings.concurrency
        let options = chosen
        let processes = StoreOpener.processLedger(settings, replicaID: replica.id)
        // Purged domains vanish at once; their rows go after the pass, in short steps, before the command exits.
        return try await StoreOpener.withStore(
            settings, clock: clock, shutdownSignals: CommandSignals.graceful, reclaimingPurges: !dryRun, logger: logger
        ) { store in
            let pass = ReconcilePass(
                configuration: configuration, store: store, processes: processes, clock: clock, logger: logger
            )
            return try await cancelWhenGracefulShutdown {
                let outcomes = try await pass.run(options)
                // A pass stopped between two units returns the ones it did: stopped all the same.
                try Task.checkCancellation()
                return outcomes
            }
        }
    }

    /// One line per unit: what was decided and why, and what it did.
    static func describe(_ outcome: UnitOutcome) -> String {
        var line = "\(outcome.unit)  \(outcome.decision.rawValue)"
        switch outcome.decision {
        case .reindexed:
            line += ": \(outcome.indexed) indexed" + (outcome.unchanged > 0 ? " (\(outcome.unchanged) unchanged)" : "")
                + ", \(outcome.deleted) deleted, \(outcome.rejected) rejected"
        case .purged: line += ": \(outcome.deleted) deleted"
        case .failed, .cancelled: line += ": \(outcome.error ?? "")"
        case .notDue, .wouldReindex, .wouldPurge, .wouldRestore, .restored, .skipped, .paused, .missed: break
        }
        line += " (\(outcome.reason))"
        if let next = outcome.nextDue { line += "; next \(outcome.decision == .failed ? "attempt" : "due") \(ISO8601.string(from: next))" }
        return line
    }
}
