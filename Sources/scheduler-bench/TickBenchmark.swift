import Engine
import Foundation
import HostSupport
import Logging
import PluginAPI
import SchedulerConfig
import SchedulerService
import Store

#if canImport(Glibc)
import Glibc
#endif

/// Measures a tick with nothing due at several numbers of units, on SQLite and on PostgreSQL: one source whose
/// partitions are the units, each run once (one item each) by a first pass, then, alternated, the service's tick
/// (units settled by the last whole pass are not read again) and a whole pass deciding every unit (what `run-once`
/// does, and what every tick did before the due index). In-process, with the service's own pass; the config is loaded
/// once, as the service holds it.
enum TickBenchmark {
    /// A plugin that sends one item for its unit, so the first pass over 100,000 units takes minutes, not hours.
    struct OneItemPlugin: SourcePlugin {
        struct Options: Decodable, Sendable {}
        static let kind = "bench-one-item"
        static let summary = "One item a unit, for the tick benchmark."
        static let options: [PluginOption] = []
        let context: PluginContext

        init(options: Options, context: PluginContext) { self.context = context }

        func produce(into sink: inout some ItemSink) async throws {
            let partition = context.partition ?? ""
            try await sink.send(SearchableItem(uniqueIdentifier: "tick-\(partition)", domainIdentifier: context.domain, title: "Unit \(partition)"))
        }
    }

    static let defaultUnits = [1_000, 10_000, 100_000]
    private static let columnWidths = [8, 11, 15, 15, 25, 19, 11]

    static func run(units counts: [Int], postgres: String?, work: String) async throws {
        let stores = [("SQLite", "sqlite: { path: ticks.sqlite }")] + (postgres.map { [("PostgreSQL", "postgres: { url: \"\($0)\", tls: disable }")] } ?? [])
        print("\n== a tick with nothing due, in-process (ms: wall, then this process's CPU; the first pass runs every unit once)")
        let headings = ["units", "store", "first pass", "settling tick", "whole pass (median of 3)", "tick (median of 3)", "load config"]
        print(zip(headings, columnWidths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " "))
        for count in counts.isEmpty ? defaultUnits : counts {
            for (name, store) in stores {
                try await measure(units: count, storeName: name, storeLine: store, work: work)
            }
        }
    }

    private static func measure(units: Int, storeName: String, storeLine: String, work: String) async throws {
        let folder = "\(work)/ticks-\(units)"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let partitions = (0..<units).map { "p\($0)" }.joined(separator: ", ")
        try """
            store: { \(storeLine) }
            sources:
              many:
                plugin: \(OneItemPlugin.kind)
                domain: com.many
                gate: bench
                schedule: monthly
                partitions: [\(partitions)]
            """.write(toFile: "\(folder)/scheduler.yaml", atomically: true, encoding: .utf8)
        try "gates:\n  bench: { enabled: true }\n".write(toFile: "\(folder)/gates.yaml", atomically: true, encoding: .utf8)

        let loading = Measured.start()
        let configuration = try ConfigLoader(directory: folder, registry: PluginRegistry([OneItemPlugin.self])).load()
        let loaded = loading.stop()
        let logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        let settings = configuration.scheduler
        let processes = StoreOpener.processLedger(settings, replicaID: nil)
        let figures = try await StoreOpener.withStore(settings, clock: SystemWallClock(), logger: logger) { store in
            if storeName == "PostgreSQL" { try await emptied(store) }
            let pass = ReconcilePass(configuration: configuration, store: store, processes: processes, clock: SystemWallClock(), logger: logger)
            var options = ReconcilePass.Options(replica: "bench", leaseDuration: settings.leaseDuration)
            options.concurrency = 8
            let first = Measured.start()
            let ran = try await pass.execute(options)
            guard ran.outcomes.allSatisfy({ $0.decision == .reindexed }) else { throw BenchmarkError("the first pass did not run every unit") }
            let firstPass = first.stop()
            var tick = options
            tick.skipsSettledUnits = true
            // The tick after the first pass decides every unit once more (each one ran) and settles them.
            let settling = Measured.start()
            _ = try await pass.execute(tick)
            let settled = settling.stop()
            var whole: [Measured.Figure] = [], ticks: [Measured.Figure] = []
            for _ in 0..<3 {
                let measuringWhole = Measured.start()
                let all = try await pass.execute(options)
                whole.append(measuringWhole.stop())
                let measuringTick = Measured.start()
                let idle = try await pass.execute(tick)
                ticks.append(measuringTick.stop())
                guard all.outcomes.count == units, idle.outcomes.isEmpty, idle.settledUnits == units else {
                    throw BenchmarkError("a whole pass decided \(all.outcomes.count) units, a tick \(idle.outcomes.count): expected \(units) and 0")
                }
            }
            return (firstPass, settled, Measured.median(whole), Measured.median(ticks))
        }
        let columns = ["\(units)", storeName, figures.0.text, figures.1.text, figures.2.text, figures.3.text, loaded.text]
        print(zip(columns, columnWidths).map { $0.padding(toLength: max($1, $0.count), withPad: " ", startingAt: 0) }.joined(separator: " "))
    }

    /// Empties the PostgreSQL store the benchmark reuses: every unit's state and item, by purging the source's domain.
    private static func emptied(_ store: any SchedulerStore) async throws {
        _ = try await store.purge(domain: "com.many")
        while try await store.index.reclaimPurgedItems(limit: 50_000) != nil {}
    }
}

/// Wall and CPU time of a stretch of this process.
struct Measured {
    struct Figure {
        var wall: Double
        var cpu: Double
        var text: String { wall >= 10 ? String(format: "%.0f s / %.0f s", wall, cpu) : String(format: "%.0f / %.0f", wall * 1000, cpu * 1000) }
    }

    let wall: ContinuousClock.Instant
    let cpu: Double

    static func start() -> Measured { Measured(wall: .now, cpu: processCPU()) }

    func stop() -> Figure {
        let elapsed = ContinuousClock.now - wall
        return Figure(wall: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, cpu: Self.processCPU() - cpu)
    }

    static func median(_ figures: [Figure]) -> Figure {
        figures.sorted { $0.wall < $1.wall }[figures.count / 2]
    }

    private static func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
