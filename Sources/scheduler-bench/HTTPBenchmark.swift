import AsyncHTTPClient
import Foundation

/// Search as clients feel it: a real `scheduler run` serving an existing index, one client sending 400 typed queries
/// over HTTP one after another (new ones, other new ones, the first again from the result cache, then every keystroke
/// of 50 new queries as a search box sends them), then `wrk` (when installed) with 2 threads and 16 connections
/// rotating 300 queries, then 30,000 never repeated.
enum HTTPBenchmark {
    static func run(database: String, work: String, scheduler: String) async throws {
        print("\n== search over HTTP, \(database)")
        let config = "\(work)/http-config"
        try? FileManager.default.removeItem(atPath: config)
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        let path = URL(fileURLWithPath: database).standardizedFileURL.path
        // One unit whose gate is off and whose domain holds nothing: the service only serves.
        try """
            store: { sqlite: { path: \(path) } }
            service: { tick: 1h, listen: 127.0.0.1:0, maxConnections: 64 }
            sources:
              idle: { plugin: command, domain: com.bench.idle, gate: off_gate, schedule: monthly, options: { command: [/bin/true] } }
            """.write(toFile: "\(config)/scheduler.yaml", atomically: true, encoding: .utf8)
        try "gates:\n  off_gate: { enabled: false }\n".write(toFile: "\(config)/gates.yaml", atomically: true, encoding: .utf8)

        let service = Process()
        service.executableURL = URL(fileURLWithPath: scheduler)
        service.arguments = ["run", "--config", config, "--log-level", "warning"]
        let output = Pipe()
        service.standardOutput = output
        try service.run()
        defer {
            service.terminate()
            service.waitUntilExit()
        }
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let start = line.range(of: "http://") else { throw BenchmarkError("the service did not say where it listens: \(line)") }
        let base = line[start.lowerBound...].trimmingCharacters(in: .whitespacesAndNewlines)

        let queries = Benchmark.typedQueries(400), others = Benchmark.typedQueries(400, seed: 1234)
        func searchPath(_ text: String) -> String {
            "/search?limit=20&q=" + (text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        }
        let client = HTTPClient.shared
        // The service keeps recent results (SearchResultCache): new queries measure the search, repeated ones the cache.
        let typing = Benchmark.keystrokes(of: Benchmark.typedQueries(50, seed: 4321))
        let rounds = [
            ("new queries", queries), ("other new queries", others), ("the first queries again, from the result cache", queries),
            ("as you type: every keystroke of 50 new queries", typing),
        ]
        for (round, texts) in rounds {
            var latencies: [Duration] = []
            for text in texts {
                let started = ContinuousClock.now
                let response = try await client.execute(HTTPClientRequest(url: base + searchPath(text)), timeout: .seconds(30))
                _ = try await response.body.collect(upTo: 16 << 20)
                guard response.status == .ok else { throw BenchmarkError("\(searchPath(text)) answered \(response.status)") }
                latencies.append(ContinuousClock.now - started)
            }
            print("one client over HTTP, \(round) (\(texts.count) queries, top 20): \(Benchmark.percentiles(latencies))")
        }

        guard let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            return print("wrk is not installed (apt-get install -y wrk): no throughput figure")
        }
        // 300 queries rotating (as the issue measures: mostly answered from the cache), then 30,000 never asked before.
        try load(wrk, base: base, paths: queries.prefix(300).map(searchPath), script: "\(work)/rotate.lua", label: "300 rotating queries")
        try load(wrk, base: base, paths: Benchmark.typedQueries(30_000, seed: 777).map(searchPath), script: "\(work)/distinct.lua", label: "30,000 queries, none repeated")
    }

    /// Runs `wrk -t2 -c16 -d20s` over `paths` in turn and prints its throughput and latency.
    private static func load(_ wrk: String, base: String, paths: [String], script: String, label: String) throws {
        try """
            local queries = {\(paths.map { "\"\($0)\"" }.joined(separator: ","))}
            local i = 0
            request = function()
              i = i + 1
              return wrk.format("GET", queries[(i % #queries) + 1])
            end
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let load = Process()
        load.executableURL = URL(fileURLWithPath: wrk)
        load.arguments = ["-t2", "-c16", "-d20s", "--latency", "-s", script, base]
        let report = Pipe()
        load.standardOutput = report
        try load.run()
        let text = String(decoding: report.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        load.waitUntilExit()
        let wanted = text.split(separator: "\n").filter { line in
            ["Requests/sec", "50%", "99%", "Non-2xx", "Socket errors"].contains { line.contains($0) }
        }
        print("wrk -t2 -c16 -d20s, \(label): " + wanted.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; "))
    }
}
