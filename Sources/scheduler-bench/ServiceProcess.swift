import AsyncHTTPClient
import Foundation

/// A `scheduler run` the bench starts on a config folder and stops when done, with the address it listens on.
struct ServiceProcess {
    /// `http://127.0.0.1:PORT`, as the service printed it.
    let base: String
    private let process: Process

    /// Starts `scheduler run --config folder` and waits for the line that says where it listens.
    init(scheduler: String, config folder: String) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: scheduler)
        process.arguments = ["run", "--config", folder, "--log-level", "warning"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let start = line.range(of: "http://") else {
            process.terminate()
            process.waitUntilExit()
            throw BenchmarkError("the service did not say where it listens: \(line)")
        }
        base = line[start.lowerBound...].trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the service's search postings hold at least `rows` rows (`scheduler_search_postings_rows`: an
    /// SQLite store's are built from every row at once; a search copy's grow as it applies commits), so that what is
    /// measured next is searches that read them; returns how long that took.
    func waitForSearchPostings(rows wanted: Int = 1, every interval: Duration = .milliseconds(200)) async throws -> Duration {
        let start = ContinuousClock.now
        while start.duration(to: .now) < .seconds(1800) {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + "/metrics"), timeout: .seconds(30))
            let text = String(buffer: try await response.body.collect(upTo: 16 << 20))
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("scheduler_search_postings_rows ") }),
               let rows = Double(line.split(separator: " ").last ?? ""), rows >= Double(wanted) {
                return start.duration(to: .now)
            }
            try await Task.sleep(for: interval)
        }
        throw BenchmarkError("the service's search postings were not built within 30 minutes")
    }

    /// Stops the service (SIGTERM) and waits for it to end.
    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// The lines of a config folder's `scheduler.yaml` that make a service that only serves: one unit whose gate is off
    /// and whose domain holds nothing; `store` is the `store:` line's value. Writes `gates.yaml` beside it.
    static func writeServingConfig(store: String, to folder: String) throws {
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
            store: \(store)
            service: { tick: 1h, listen: 127.0.0.1:0, maxConnections: 64 }
            sources:
              idle: { plugin: command, domain: com.bench.idle, gate: off_gate, schedule: monthly, options: { command: [/bin/true] } }
            """.write(toFile: "\(folder)/scheduler.yaml", atomically: true, encoding: .utf8)
        try "gates:\n  off_gate: { enabled: false }\n".write(toFile: "\(folder)/gates.yaml", atomically: true, encoding: .utf8)
    }
}
