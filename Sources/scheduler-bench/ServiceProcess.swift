import AsyncHTTPClient
import Foundation
import PluginAPI

#if canImport(Glibc)
import Glibc
#endif

/// A `scheduler run` the bench starts on a config folder and stops when done, with the address it listens on.
struct ServiceProcess {
    /// `http://127.0.0.1:PORT`, as the service printed it.
    let base: String
    let pid: Int32

    /// Starts `scheduler run --config folder` (and `arguments`, in this process's environment but for the variables
    /// `unsetting` names) and waits for the line that says where it listens.
    init(scheduler: String, config folder: String, arguments: [String] = [], unsetting: Set<String> = []) throws {
        let output = Pipe()
        pid = try BenchChildren.started {
            try ProcessSpawn.spawn(
                scheduler, arguments: ["run", "--config", folder, "--log-level", "warning"] + arguments,
                environment: ProcessInfo.processInfo.environment.filter { !unsetting.contains($0.key) },
                output: .descriptor(output.fileHandleForWriting.fileDescriptor), errors: .inherited, newGroup: true
            )
        }
        try output.fileHandleForWriting.close()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let start = line.range(of: "http://") else {
            Self.stop(pid)
            throw BenchmarkError("the service did not say where it listens: \(line)")
        }
        base = line[start.lowerBound...].trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the service's search postings hold at least `rows` rows (`scheduler_search_postings_rows`: an
    /// SQLite store's are built from every row at once; a search copy's grow as it applies commits), so that what is
    /// measured next is searches that read them; returns how long that took.
    /// The longest a measure waits for a service: a first start at ten million items builds its postings for 20–40
    /// minutes on this VM, longer while other work shares it.
    static let longestWait: Duration = .seconds(5_400)

    func waitForSearchPostings(rows wanted: Int = 1, every interval: Duration = .milliseconds(200)) async throws -> Duration {
        let start = ContinuousClock.now
        while start.duration(to: .now) < Self.longestWait {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + "/metrics"), timeout: .seconds(30))
            let text = String(buffer: try await response.body.collect(upTo: 16 << 20))
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("scheduler_search_postings_rows ") }),
               let rows = Double(line.split(separator: " ").last ?? ""), rows >= Double(wanted) {
                return start.duration(to: .now)
            }
            try await Task.sleep(for: interval)
        }
        throw BenchmarkError("the service's search postings were not built within \(Self.longestWait)")
    }

    /// Waits until `/readyz` answers 200, checking every 20 ms; how long that took.
    func waitUntilReady() async throws -> Duration {
        let start = ContinuousClock.now
        while start.duration(to: .now) < Self.longestWait {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + "/readyz"), timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
            if response.status == .ok { return start.duration(to: .now) }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw BenchmarkError("the service was not ready within \(Self.longestWait)")
    }

    /// Its resident memory at its peak and now (`VmHWM`, `VmRSS` in `/proc/PID/status`), and what it is now made of:
    /// the process's own memory (`RssAnon`) and pages of mapped files (`RssFile`), which the kernel may take back.
    func memory() -> String {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let lines = status.split(separator: "\n").filter { ["VmHWM", "VmRSS", "RssAnon", "RssFile"].contains(where: $0.hasPrefix) }
        return lines.map { $0.replacingOccurrences(of: "\t", with: " ").split(separator: " ").joined(separator: " ") }.joined(separator: ", ")
    }

    /// The CPU time it has spent so far, user and system (`utime + stime` in `/proc/PID/stat`), in seconds.
    func cpuSeconds() -> Double {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // The fields after the command's name (which may hold spaces), from the third: utime is the 14th, stime the 15th.
        let fields = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ").dropFirst()
        let ticks = fields.dropFirst(11).prefix(2).compactMap { Double($0) }.reduce(0, +)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Stops the service (SIGTERM) and waits for it to end.
    func stop() { Self.stop(pid) }

    private static func stop(_ pid: Int32) {
        kill(pid, SIGTERM)
        BenchChildren.wait(for: pid)
    }

    /// The lines of a config folder's `scheduler.yaml` that make a service that only serves: one unit whose gate is off
    /// and whose domain holds nothing; `store` is the `store:` line's value, `adding` one more line. Writes `gates.yaml`
    /// beside it.
    static func writeServingConfig(store: String, to folder: String, adding line: String? = nil) throws {
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
            store: \(store)
            service: { tick: 1h, listen: 127.0.0.1:0, maxConnections: 64 }
            sources:
              idle: { plugin: command, domain: com.bench.idle, gate: off_gate, schedule: monthly, options: { command: [/bin/true] } }
            \(line ?? "")
            """.write(toFile: "\(folder)/scheduler.yaml", atomically: true, encoding: .utf8)
        try "gates:\n  off_gate: { enabled: false }\n".write(toFile: "\(folder)/gates.yaml", atomically: true, encoding: .utf8)
    }
}
