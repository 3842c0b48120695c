import Foundation
import PluginAPI

#if canImport(Glibc)
import Glibc
#endif

/// Two services compared at once: `scheduler-bench --paired DATABASE [--row-cache A,B] [--against PATH]
/// [--against-database PATH]`.
///
/// This VM's speed drifts 20–40 % within minutes, so two builds or settings measured one after the other differ by
/// more than most changes do (BENCHMARKS.md, 2026-11-30, morning). Here both run at the same time, each a `scheduler
/// run` on its own copy of the index (`DATABASE`, or B's `--against-database`, and its saved postings, copied under
/// `--work`), each loaded by its own
/// `wrk -t1 -c8` walking the same list of never-repeated queries at its own pace: the drift falls on both alike. After a
/// warm-up of ``warmUp`` (the row caches fill), ``rounds`` rounds of ``round`` each give the CPU time each service
/// spent a request (`utime + stime` from `/proc/PID/stat`), and their ratio, A over B; the median of the rounds is
/// the figure. Run it with A and B the same (no option) to see the method's own noise. With `--writer`, a ``Writer``
/// commits beside the load in both copies alike.
enum PairedBenchmark {
    /// One of the two services: the `scheduler` program it runs, and its `search.rowCacheMegabytes` (`nil`: the
    /// default).
    struct Side {
        var name: String
        var scheduler: String
        var database: String
        var rowCache: Int?

        var description: String {
            "\(name): \(scheduler) on \(database), " + (rowCache.map { "rowCacheMegabytes: \($0)" } ?? "the default row cache")
        }
    }

    static let warmUp = 90
    static let round = 30
    static let rounds = 6
    /// Connections each `wrk` keeps open (4 per core: both services stay busy).
    static let connections = 8

    static func run(sides: [Side], writer: Bool, work: String) async throws {
        print("\n== paired: both services at once, CPU per never-repeated search")
        guard let wrk = HTTPBenchmark.wrk else { throw BenchmarkError("--paired loads both services with wrk: apt-get install -y wrk") }
        sides.forEach { print($0.description) }
        let services = try await start(sides, work: work)
        defer { services.forEach { $0.stop() } }
        let writing = writer ? try Writer(scheduler: sides[0].scheduler, folders: sides.map { folder(of: $0, work: work) }, work: work) : nil
        defer { writing?.stop() }
        let queries = Benchmark.distinctTypedQueries(400_000, seed: 999).map(HTTPBenchmark.searchPath)
        var loads = services.map { Load(service: $0, queries: queries, work: work) }
        print("warm-up: \(warmUp) s of load on both")
        _ = try Load.together(&loads, wrk: wrk, seconds: warmUp)
        var ratios: [Double] = []
        for number in 1...rounds {
            let figures = try Load.together(&loads, wrk: wrk, seconds: round)
            let perRequest = figures.map { $0.cpuSeconds / Double(max($0.requests, 1)) }
            ratios.append(perRequest[0] / perRequest[1])
            let each = zip(sides, figures).map { side, figure in
                String(format: "%@ %.0f req/s, %.0f µs CPU a request", side.name, Double(figure.requests) / Double(round),
                    figure.cpuSeconds / Double(max(figure.requests, 1)) * 1e6)
            }
            print(String(format: "round %d: %@; A/B %.3f", number, each.joined(separator: ", "), ratios.last!))
        }
        let sorted = ratios.sorted()
        let median = (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
        print(String(format: "A/B CPU a request: median %.3f (rounds %.3f–%.3f)", median, sorted.first!, sorted.last!))
        for (side, service) in zip(sides, services) { print("\(side.name) memory: \(service.memory())") }
        if let imports = writing?.imports { print("writer: \(imports.committed) imports of 50 items committed over both copies, \(imports.failed) failed") }
        if loads.contains(where: \.wrapped) { print("note: the query list wrapped: some queries were sent twice to the same service") }
    }

    /// Each side's service on its own copy of the index, its postings held.
    private static func start(_ sides: [Side], work: String) async throws -> [ServiceProcess] {
        var services: [ServiceProcess] = []
        for side in sides {
            let folder = folder(of: side, work: work)
            let copy = "\(folder)/index.sqlite"
            try ServiceProcess.writeServingConfig(
                store: "{ sqlite: { path: \(copy) } }", to: folder, adding: side.rowCache.map { "search: { rowCacheMegabytes: \($0) }" }
            )
            for suffix in ["", "-wal", ".postings"] where FileManager.default.fileExists(atPath: side.database + suffix) {
                try FileManager.default.copyItem(atPath: side.database + suffix, toPath: copy + suffix)
            }
            let service = try ServiceProcess(scheduler: side.scheduler, config: folder)
            services.append(service)
            print(String(format: "%@ held its search postings after %.1f s", side.name, try await service.waitForSearchPostings().seconds))
        }
        return services
    }
}

extension PairedBenchmark {
    /// The folder of a side's config and copy of the index.
    static func folder(of side: Side, work: String) -> String { "\(work)/paired-\(side.name)" }

    /// Rewrites 50 of the bench's items in each copy in turn, about once a second (`scheduler index import` of two
    /// versions of them, alternating, as another process would): each service sees a commit every few seconds, its
    /// postings catch up, and whatever it keeps for one commit serves no search of the next. One shell loop, stopped
    /// with its process group.
    struct Writer {
        let pid: Int32
        let log: String

        init(scheduler: String, folders: [String], work: String) throws {
            let items = "\(work)/items-50.ndjson", edited = "\(work)/items-50-edited.ndjson"
            try Benchmark.generate(n: 50, ndjson: items, csv: "\(work)/items-50.csv")
            try String(contentsOfFile: items, encoding: .utf8).replacingOccurrences(of: #""title":""#, with: #""title":"edited "#)
                .write(toFile: edited, atomically: true, encoding: .utf8)
            let log = "\(work)/paired-writer.log"
            self.log = log
            try "".write(toFile: log, atomically: true, encoding: .utf8)
            let imports = folders.map { folder in
                "\"$0\" index import \"$FILE\" --config '\(folder)' --database '\(folder)/index.sqlite' > /dev/null && echo ok >> '\(log)' || echo failed >> '\(log)'; sleep 1"
            }
            let script = "n=0; while :; do if [ $((n % 2)) = 0 ]; then FILE='\(edited)'; else FILE='\(items)'; fi; \(imports.joined(separator: "; ")); n=$((n + 1)); done"
            guard !(folders + [work]).contains(where: { $0.contains("'") }) else { throw BenchmarkError("--writer needs a --work path without quotes") }
            pid = try BenchChildren.started {
                try ProcessSpawn.spawn(
                    "/bin/sh", arguments: ["-c", script, scheduler], environment: ProcessInfo.processInfo.environment, errors: .inherited, newGroup: true
                )
            }
        }

        /// The imports that committed so far, and those that failed (their errors went to the bench's standard error).
        var imports: (committed: Int, failed: Int) {
            let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
            return (lines.filter { $0 == "ok" }.count, lines.filter { $0 == "failed" }.count)
        }

        /// Stops the loop and the import it runs.
        func stop() {
            kill(-pid, SIGTERM)
            BenchChildren.wait(for: pid)
        }
    }

    /// One service's load: the queries it has not been sent yet.
    struct Load {
        let service: ServiceProcess
        let queries: [String]
        let script: String
        var next = 0
        var wrapped = false

        init(service: ServiceProcess, queries: [String], work: String) {
            self.service = service
            self.queries = queries
            script = "\(work)/paired-\(service.pid).lua"
        }

        /// What one load of a service did: the requests answered and the CPU time the service spent meanwhile.
        struct Figures {
            var requests: Int
            var cpuSeconds: Double
        }

        /// Runs a `wrk` on each service for `seconds`, all at once; what each did.
        static func together(_ loads: inout [Load], wrk: String, seconds: Int) throws -> [Figures] {
            var started: [(pid: Int32, output: String, cpu: Double)] = []
            for index in loads.indices {
                let output = try loads[index].writeScript(seconds: seconds)
                let pid = try BenchChildren.started {
                    try ProcessSpawn.spawn(
                        wrk, arguments: ["-t1", "-c\(connections)", "-d\(seconds)s", "-s", loads[index].script, loads[index].service.base],
                        environment: ProcessInfo.processInfo.environment, output: .descriptor(output.fileDescriptor), errors: .inherited,
                        newGroup: true
                    )
                }
                try output.close()
                started.append((pid, loads[index].output, loads[index].service.cpuSeconds()))
            }
            return try zip(loads.indices, started).map { index, run in
                let status = BenchChildren.wait(for: run.pid).status
                let cpu = loads[index].service.cpuSeconds() - run.cpu
                let text = (try? String(contentsOfFile: run.output, encoding: .utf8)) ?? ""
                guard status == 0, let requests = Self.requests(in: text) else { throw BenchmarkError("wrk failed (status \(status)): \(text)") }
                loads[index].advance(by: requests, seconds: seconds)
                return Figures(requests: requests, cpuSeconds: cpu)
            }
        }

        /// The file the output of its `wrk` goes to.
        var output: String { "\(script).out" }

        /// Writes the script of the next load, which sends the queries from ``next`` on (at most 3,000 a second);
        /// returns the file `wrk`'s output goes to.
        private mutating func writeScript(seconds: Int) throws -> FileHandle {
            let count = Self.scriptLength(seconds: seconds, of: queries.count)
            if next + count > queries.count { (next, wrapped) = (0, true) }
            try """
                local queries = {\(queries[next..<(next + count)].map { "\"\($0)\"" }.joined(separator: ","))}
                local i = 0
                request = function()
                  i = i + 1
                  return wrk.format("GET", queries[((i - 1) % #queries) + 1])
                end
                """.write(toFile: script, atomically: true, encoding: .utf8)
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            return try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        }

        /// Moves past the queries a load of `seconds` sent: those answered, and those still open on its connections
        /// when it ended; notes a script that had to send some twice.
        private mutating func advance(by requests: Int, seconds: Int) {
            let sent = requests + PairedBenchmark.connections
            if sent > Self.scriptLength(seconds: seconds, of: queries.count) { wrapped = true }
            next += sent
        }

        /// How many queries the script of a load of `seconds` holds: 3,000 a second, at most the whole list.
        private static func scriptLength(seconds: Int, of count: Int) -> Int { min(count, seconds * 3_000) }

        /// The requests `wrk` says were answered (`123456 requests in 30.00s, …`); `nil` when any was not a 200.
        private static func requests(in output: String) -> Int? {
            guard !output.contains("Non-2xx"), !output.contains("Socket errors"),
                let line = output.split(separator: "\n").first(where: { $0.contains(" requests in ") })
            else { return nil }
            return Int(line.trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
        }
    }
}
