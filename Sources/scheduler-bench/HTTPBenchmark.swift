import AsyncHTTPClient
import Foundation

/// Search as clients feel it: a real `scheduler run` serving an existing index, one client sending 400 typed queries
/// over HTTP one after another (new ones, other new ones, the first again twice: computed, then from the result cache,
/// which keeps a result the second time it is computed; then every keystroke
/// of 50 new queries as a search box sends them), then `wrk` (when installed) with 2 threads and 16 connections
/// rotating 300 queries, then 30,000 never repeated.
enum HTTPBenchmark {
    /// What one client and `wrk` measured.
    struct Figures {
        /// One client, 400 typed queries new to every cache.
        var newQueries: [Duration] = []
        /// One client, every keystroke of 50 new queries.
        var asYouType: [Duration] = []
        /// `wrk`, 300 queries rotating (mostly answered from the result cache); `nil` without `wrk`.
        var rotating: Load?
        /// `wrk`, queries never asked before; `nil` without `wrk`.
        var neverRepeated: Load?
    }

    /// What `wrk` reported.
    struct Load {
        var requestsPerSecond: Double
        var p50: String
        var p99: String
        /// Its lines about throughput, latency and errors, joined.
        var summary: String
    }

    /// `scheduler-bench --http DATABASE [--row-cache MB,MB,…]`: a service on an existing SQLite index, measured; with
    /// several sizes of the candidate row cache (`search.rowCacheMegabytes`, `default` for none set), a service with
    /// each in turn, twice over, so that the machine's drift falls on all alike.
    static func run(database: String, rowCaches: [Int?], work: String, scheduler: String) async throws {
        let path = URL(fileURLWithPath: database).standardizedFileURL.path
        for round in 1...(rowCaches.count > 1 ? 2 : 1) {
            for megabytes in rowCaches {
                let setting = megabytes.map { "search: { rowCacheMegabytes: \($0) }" }
                let heading = rowCaches.count > 1 ? ", \(setting ?? "the default row cache"), round \(round)" : setting.map { ", \($0)" } ?? ""
                print("\n== search over HTTP, \(database)" + heading)
                let config = "\(work)/http-config"
                try ServiceProcess.writeServingConfig(store: "{ sqlite: { path: \(path) } }", to: config, adding: setting)
                let service = try ServiceProcess(scheduler: scheduler, config: config)
                defer { service.stop() }
                print(String(format: "the service held its search postings after %.1f s", try await service.waitForSearchPostings().seconds))
                _ = try await measure(base: service.base, work: work)
                print("memory: \(service.memory())")
            }
        }
    }

    /// Measures the service at `base` and prints each figure (after `label`) as it comes.
    static func measure(base: String, work: String, label: String = "") async throws -> Figures {
        let queries = Benchmark.typedQueries(400), others = Benchmark.typedQueries(400, seed: 1234)
        // The service keeps recent results (SearchResultCache), each the second time it is computed: new queries measure
        // the search, queries asked a third time the cache.
        let typing = Benchmark.keystrokes(of: Benchmark.typedQueries(50, seed: 4321))
        let rounds = [
            ("new queries", queries), ("other new queries", others), ("the first queries again, computed again and kept", queries),
            ("the first queries a third time, from the result cache", queries), ("as you type: every keystroke of 50 new queries", typing),
        ]
        var figures = Figures()
        for (number, (round, texts)) in rounds.enumerated() {
            let latencies = try await oneClient(base: base, texts: texts).map(\.latency)
            print("\(label)one client over HTTP, \(round) (\(texts.count) queries, top 20): \(Benchmark.percentiles(latencies))")
            if number == 0 { figures.newQueries = latencies }
            if number == rounds.count - 1 { figures.asYouType = latencies }
        }

        guard let wrk else {
            print("wrk is not installed (apt-get install -y wrk): no throughput figure")
            return figures
        }
        // 300 queries rotating (as the issue measures: mostly answered from the cache), then queries never asked before:
        // distinct, none of the rounds above, each sent once whichever of wrk's threads sends it.
        figures.rotating = try load(wrk, base: base, paths: queries.prefix(300).map(searchPath), script: "\(work)/rotate.lua", label: "\(label)300 rotating queries")
        let asked = Set(queries + others + typing)
        let distinct = Benchmark.distinctTypedQueries(Self.neverRepeated, seed: 777).filter { !asked.contains($0) }
        figures.neverRepeated = try load(
            wrk, base: base, paths: distinct.map(searchPath), script: "\(work)/distinct.lua", label: "\(label)\(distinct.count) distinct queries, none repeated"
        )
        return figures
    }

    /// One search of ``oneClient(base:texts:until:refusalsAllowed:)``: when it was sent, how long until its answer,
    /// and whether the service refused it (503: a store past its deadline; the client is told to retry).
    struct Search {
        var sent: ContinuousClock.Instant
        var latency: Duration
        var refused = false
    }

    /// Each of `texts`, searched in turn by one client of the service at `base` (until `deadline`, when given). An
    /// answer other than 200 stops the measure, but a 503 where `refusalsAllowed` (a replica still making its copy,
    /// PostgreSQL answering under its deadline), which is counted.
    static func oneClient(
        base: String, texts: [String], until deadline: ContinuousClock.Instant? = nil, refusalsAllowed: Bool = false
    ) async throws -> [Search] {
        var searches: [Search] = []
        for text in texts {
            if let deadline, ContinuousClock.now >= deadline { break }
            let sent = ContinuousClock.now
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + searchPath(text)), timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 16 << 20)
            let refused = refusalsAllowed && response.status == .serviceUnavailable
            guard response.status == .ok || refused else { throw BenchmarkError("\(searchPath(text)) answered \(response.status)") }
            searches.append(Search(sent: sent, latency: sent.duration(to: .now), refused: refused))
        }
        return searches
    }

    /// Where `wrk` is installed, if it is.
    static let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: FileManager.default.isExecutableFile(atPath:))

    /// The path of a search for `text`, top 20.
    static func searchPath(_ text: String) -> String {
        "/search?limit=20&q=" + (text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    /// How many distinct queries the never-repeated load holds: more than ``loadSeconds`` of `wrk` sends at 3,000
    /// requests a second, or 1,000 when it runs longer than 80 s.
    static var neverRepeated: Int { max(80_000, loadSeconds * 1_000) }
    /// How long each `wrk` load runs: 20 s, or `BENCH_LOAD_SECONDS` (the issue's memory figure is taken after two minutes).
    static let loadSeconds: Int = {
        guard let text = ProcessInfo.processInfo.environment["BENCH_LOAD_SECONDS"] else { return 20 }
        guard let seconds = Int(text), (1...3_600).contains(seconds) else {
            print("BENCH_LOAD_SECONDS must be a whole number of seconds, 1–3600 (got '\(text)')")
            exit(2)
        }
        return seconds
    }()

    /// Runs `wrk -t2 -c16` for ``loadSeconds`` over `paths` in turn and prints its throughput and latency.
    /// Each of wrk's threads runs the script in a state of its own: thread `k` of 2 sends queries `k`, `k + 2`, … so
    /// no query is sent twice before the list wraps.
    private static func load(_ wrk: String, base: String, paths: [String], script: String, label: String) throws -> Load {
        try """
            local queries = {\(paths.map { "\"\($0)\"" }.joined(separator: ","))}
            local threads = 0
            setup = function(thread)
              thread:set("first", threads)
              threads = threads + 1
            end
            local i = nil
            request = function()
              i = (i or first) + 2
              return wrk.format("GET", queries[(i % #queries) + 1])
            end
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let text = try ChildProcess.output([wrk, "-t2", "-c16", "-d\(loadSeconds)s", "--latency", "-s", script, base]) ?? ""
        // The lines that start so (a thread's "Req/Sec … 70.50%" holds "50%" too).
        let wanted = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { line in
            ["Requests/sec", "50%", "99%", "Non-2xx", "Socket errors"].contains { line.hasPrefix($0) }
        }
        let summary = wanted.joined(separator: "; ")
        print("wrk -t2 -c16 -d\(loadSeconds)s, \(label): " + summary)
        func value(after prefix: String) -> String? {
            wanted.first { $0.hasPrefix(prefix) }.map { $0.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces) }
        }
        guard let rate = value(after: "Requests/sec:").flatMap(Double.init), let p50 = value(after: "50%"), let p99 = value(after: "99%") else {
            throw BenchmarkError("wrk printed no throughput or latency: \(text)")
        }
        return Load(requestsPerSecond: rate, p50: p50, p99: p99, summary: summary)
    }
}
