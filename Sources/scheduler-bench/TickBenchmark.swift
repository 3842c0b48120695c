import Foundation

/// Measures a tick that finds nothing due: `scheduler run-once` over 1,000 units that all succeeded, whole process,
/// with the index holding only their 1,000 items and then `background` more in another domain (the cost per unit
/// must not grow with the index).
enum TickBenchmark {
    static let units = 1_000

    static func run(background: Int, work: String, scheduler: String) throws {
        print("\n== a tick with nothing due: \(units) units, index of \(units) then \(units + background) items")
        let config = "\(work)/ticks-config", database = "\(work)/ticks.sqlite"
        try? FileManager.default.removeItem(atPath: config)
        for suffix in ["", "-wal", "-shm", ".lock", ".plugins"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        let partitions = (0..<units).map { "p\($0)" }.joined(separator: ", ")
        try """
            store: { sqlite: { path: ../ticks.sqlite } }
            sources:
              many:
                plugin: command
                domain: com.many
                gate: bench
                schedule: monthly
                partitions: [\(partitions)]
                options: { command: [../ticks-feed.sh] }
            """.write(toFile: "\(config)/scheduler.yaml", atomically: true, encoding: .utf8)
        try "gates:\n  bench: { enabled: true }\n".write(toFile: "\(config)/gates.yaml", atomically: true, encoding: .utf8)
        let feed = "\(work)/ticks-feed.sh"
        try #"""
            #!/bin/sh
            printf '{"uniqueIdentifier":"tick-%s","domainIdentifier":"%s","title":"Unit %s"}\n' "$SCHEDULER_PARTITION" "$SCHEDULER_DOMAIN" "$SCHEDULER_PARTITION"
            """#.write(toFile: feed, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: feed)

        let pass = [scheduler, "run-once", "--config", config, "--log-level", "warning"]
        let first = try ChildProcess.measure(pass)
        guard first.status == 0 else { throw BenchmarkError("the first pass exited \(first.status)") }
        print(String(format: "first pass (1,000 units reindexed): %.2f s", first.seconds))
        try report("idle pass, \(units) items in the index", pass)
        if background > 0 {
            let ndjson = "\(work)/items-\(background).ndjson"
            try Benchmark.generate(n: background, ndjson: ndjson, csv: "\(work)/items-\(background).csv")
            let imported = try ChildProcess.measure([scheduler, "index", "import", ndjson, "--database", database])
            guard imported.status == 0 else { throw BenchmarkError("scheduler index import exited \(imported.status)") }
            try report("idle pass, \(units + background) items in the index", pass)
        }
        let validate = try ChildProcess.measure([scheduler, "validate", "--config", config])
        print(String(format: "for scale, validate of the same config: %.0f ms", validate.seconds * 1000))
    }

    /// Runs the pass seven times; prints the median and the fastest, whole process.
    private static func report(_ label: String, _ arguments: [String]) throws {
        var seconds: [Double] = []
        for _ in 0..<7 {
            let result = try ChildProcess.measure(arguments)
            guard result.status == 0 else { throw BenchmarkError("\(arguments.joined(separator: " ")) exited \(result.status)") }
            seconds.append(result.seconds)
        }
        seconds.sort()
        print(String(format: "%@: median %.0f ms, fastest %.0f ms (whole process, 7 runs)", label, seconds[3] * 1000, seconds[0] * 1000))
    }
}
