import Foundation
import Store

/// Search as clients feel it right after a restart, with the search postings saved beside the index and without:
/// `scheduler-bench --restart DATABASE`.
///
/// A first `scheduler run` on the index builds its postings and saves them (`DATABASE.postings`). Then, alternating
/// (saved, built, saved, built): a service started on the index, with the saved file or with it removed (the one it
/// saves after building them is kept for the next round: its token is the database's now); one client
/// sends 400 queries new to every cache from 10 s after the start; then how long until its postings are held, and
/// the whole HTTP measure (``HTTPBenchmark``) with its peak resident memory (`VmHWM`). With `--once`: one start on
/// the file a service saved (`--goals` leaves one), or one after the first build; what a large index can afford.
enum RestartBenchmark {
    static func run(database named: String, once: Bool, work: String, scheduler: String) async throws {
        print("\n== a restart, with the search postings saved and without, \(named)")
        // The service names its saved postings after the database's real path (through a link, beside its target).
        guard case .sqlite(let database) = StoreLocation.sqlite(resolving: named) else { return }
        let config = "\(work)/restart-config", saved = database + ".postings"
        try ServiceProcess.writeServingConfig(store: "{ sqlite: { path: \(database) } }", to: config)
        if once, FileManager.default.fileExists(atPath: saved) {
            // A file a service saved (`--goals` leaves one): one start on it, no build.
            return try await measure(config: config, scheduler: scheduler, work: work, label: "saved: ", seed: 5000)
        }
        try? FileManager.default.removeItem(atPath: saved)
        let first = try ServiceProcess(scheduler: scheduler, config: config)
        print(String(format: "first start, no saved file: postings built in %.1f s", try await first.waitForSearchPostings().seconds))
        let savedIn = try await waitForFile(saved)
        first.stop()
        print(String(format: "saved in %.1f s after that: %.0f MB (the index: %.0f MB)", savedIn.seconds, Benchmark.megabytes(saved), Benchmark.megabytes(database)))
        let keep = "\(saved).kept"
        try? FileManager.default.removeItem(atPath: keep)
        try FileManager.default.copyItem(atPath: saved, toPath: keep)
        for (round, withFile) in (once ? [true] : [true, false, true, false] as [Bool]).enumerated() {
            try? FileManager.default.removeItem(atPath: saved)
            if withFile { try FileManager.default.copyItem(atPath: keep, toPath: saved) }
            try await measure(config: config, scheduler: scheduler, work: work, label: "\(withFile ? "saved" : "built") (\(round + 1)): ", seed: 5000 + UInt64(round))
            // A service that built them saved them with a new token: only that file is the database's now.
            if !withFile {
                try FileManager.default.removeItem(atPath: keep)
                try FileManager.default.copyItem(atPath: saved, toPath: keep)
            }
        }
        try? FileManager.default.removeItem(atPath: keep)
    }

    private static func measure(config: String, scheduler: String, work: String, label: String, seed: UInt64) async throws {
        let started = ContinuousClock.now
        let service = try ServiceProcess(scheduler: scheduler, config: config)
        defer { service.stop() }
        let listening = started.duration(to: .now)
        async let held = service.waitForSearchPostings(every: .milliseconds(50))
        try await Task.sleep(until: started + .seconds(10))
        let latencies = try await HTTPBenchmark.oneClient(base: service.base, texts: Benchmark.typedQueries(400, seed: seed)).map(\.latency)
        let heldAfter = try await held + listening
        print(String(format: "%@listening after %.1f s; postings held %.1f s after the start; 400 new queries from 10 s after the start: %@",
            label, listening.seconds, heldAfter.seconds, Benchmark.percentiles(latencies)))
        _ = try await HTTPBenchmark.measure(base: service.base, work: work, label: label)
        print("\(label)memory: \(service.memory())")
    }

    /// Waits until a file is at `path` (a save renames it into place whole); returns how long that took.
    static func waitForFile(_ path: String) async throws -> Duration {
        let start = ContinuousClock.now
        while !FileManager.default.fileExists(atPath: path) {
            guard start.duration(to: .now) < ServiceProcess.longestWait else { throw BenchmarkError("no file at \(path) after \(ServiceProcess.longestWait)") }
            try await Task.sleep(for: .milliseconds(200))
        }
        return start.duration(to: .now)
    }
}
