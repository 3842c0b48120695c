import Foundation

/// Measures whole reconcile passes: `scheduler run-once` over a `command` source that prints N items, as the
/// first run, as a forced full reindex over the same items, and as a run whose feed lost a tenth of them.
enum PassBenchmark {
    static func run(n: Int, work: String, scheduler: String) throws {
        print("\n== reconcile pass, \(n) items")
        let ndjson = "\(work)/items-\(n).ndjson"
        try Benchmark.generate(n: n, ndjson: ndjson, csv: "\(work)/items-\(n).csv")
        let config = "\(work)/pass-config-\(n)"
        try? FileManager.default.removeItem(atPath: config)
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: "\(work)/pass-\(n).sqlite" + suffix) }
        try writeSource(config: config, n: n, ["/bin/cat", ndjson])
        try measure("first run (empty index)", n: n, [scheduler, "run-once", "--config", config])
        try measure("forced full reindex (same items)", n: n, [scheduler, "run-once", "--force", "--config", config])
        let kept = n - n / 10
        try writeSource(config: config, n: n, ["/usr/bin/head", "-n", "\(kept)", ndjson])
        try measure("reindex whose feed lost 10% (deleted as stale)", n: kept, [scheduler, "run-once", "--config", config])
    }

    /// A first pass over N items against `scheduler index import` of the same items, alternated `rounds` times, each on
    /// a new index: the import's total seconds over the passes' (1: a first pass is as fast as an import).
    static func firstPassAgainstImport(n: Int, rounds: Int = 2, work: String, scheduler: String) throws -> (ratio: Double, pass: Double, import: Double) {
        let ndjson = "\(work)/items-\(n).ndjson"
        try Benchmark.generate(n: n, ndjson: ndjson, csv: "\(work)/items-\(n).csv")
        let config = "\(work)/pass-config-\(n)", imported = "\(work)/pass-import-\(n).sqlite"
        try? FileManager.default.removeItem(atPath: config)
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try writeSource(config: config, n: n, ["/bin/cat", ndjson])
        var passSeconds = 0.0, importSeconds = 0.0
        for _ in 0..<rounds {
            for file in ["\(work)/pass-\(n).sqlite", imported] { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
            let pass = try ChildProcess.measure([scheduler, "run-once", "--config", config])
            guard pass.status == 0 else { throw BenchmarkError("scheduler run-once exited \(pass.status)") }
            passSeconds += pass.seconds
            importSeconds += try Benchmark.importIndex(ndjson: ndjson, database: imported, scheduler: scheduler).seconds
        }
        print(String(format: "first pass against index import, %d items, %d rounds alternated: %.1f s against %.1f s (%.2f×)",
            n, rounds, passSeconds / Double(rounds), importSeconds / Double(rounds), importSeconds / passSeconds))
        return (importSeconds / passSeconds, passSeconds / Double(rounds), importSeconds / Double(rounds))
    }

    /// Writes the config folder of one `command` source printing items with `command`, its store `../pass-N.sqlite`.
    private static func writeSource(config: String, n: Int, _ command: [String]) throws {
        try "gates:\n  bench: { enabled: true }\n".write(toFile: "\(config)/gates.yaml", atomically: true, encoding: .utf8)
        let quoted = command.map { "\"\($0)\"" }.joined(separator: ", ")
        try """
            store: { sqlite: { path: ../pass-\(n).sqlite } }
            sources:
              bench:
                plugin: command
                domain: com.bench
                gate: bench
                schedule: monthly
                maxDeleteRatio: 0.5
                options: { command: [\(quoted)], timeout: 2h }
            """.write(toFile: "\(config)/scheduler.yaml", atomically: true, encoding: .utf8)
    }

    private static func measure(_ label: String, n: Int, _ arguments: [String]) throws {
        let result = try ChildProcess.measure(arguments)
        guard result.status == 0 else { throw BenchmarkError("\(arguments.joined(separator: " ")) exited \(result.status)") }
        print(String(format: "%@: %.2f s (CPU %.2f s), %.0f items/s, peak memory %.0f MB",
            label, result.seconds, result.cpuSeconds, Double(n) / result.seconds, Double(result.peakMemoryBytes) / 1e6))
    }
}
