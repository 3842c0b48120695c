import Foundation
import ProcessSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `scheduler run` started as a process on a loopback port the system chose, with an HTTP client for it.
final class RunningService {
    let process: ChildProcess
    let base: URL
    /// The operators' listener (`service.adminListen`), when the config has one and `operators` was asked for.
    let operatorsBase: URL?
    private let errors: Drain

    /// Starts the service and waits until it says where it listens (and, with `operators`, where its operators'
    /// listener does). The wait is on a thread of its own (``onOwnThread(_:)``): a start slowed by a busy machine
    /// must not hold one of the few threads every other test runs on.
    init(_ arguments: [String], environment: [String: String] = [:], operators: Bool = false) async throws {
        let (process, _, stdout, stderr) = try SchedulerProcess.start(["run"] + arguments, environment: environment)
        self.process = process
        errors = Drain(stderr)
        let reader = stdout.fileHandleForReading
        let output = try await onOwnThread {
            var output = Data()
            while output.count(where: { $0 == UInt8(ascii: "\n") }) < (operators ? 2 : 1) {
                let chunk = reader.availableData
                guard !chunk.isEmpty else { break }
                output += chunk
            }
            return output
        }
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        func url(_ prefix: String) -> URL? {
            lines.first { $0.hasPrefix(prefix) }.flatMap { URL(string: String($0.dropFirst(prefix.count - "http://".count))) }
        }
        guard let base = url("listening on http://"), !operators || url("operators listening on http://") != nil else {
            process.terminate()
            process.waitUntilExit()
            throw ServiceDidNotStart(output: lines.joined(separator: "\n") + errors.text())
        }
        self.base = base
        operatorsBase = url("operators listening on http://")
    }

    struct ServiceDidNotStart: Error, CustomStringConvertible {
        var output: String
        var description: String { "the service did not start: \(output)" }
    }

    /// A test that failed before ``terminate()`` leaves the service interrupted and reaped on a thread of its own:
    /// a blocked wait here would hold one of the few threads every test runs on.
    deinit {
        let process = process
        guard process.isRunning else { return }
        process.interrupt()
        Thread.detachNewThread { process.waitUntilExit() }
    }

    /// Sends SIGTERM and waits for the exit status; a service still running a minute later is killed (its status
    /// then says so), so a test fails instead of hanging. The wait is on a thread of its own (``onOwnThread(_:)``).
    func terminate() async -> Int32 {
        let process = process
        kill(process.processIdentifier, SIGTERM)
        return (try? await onOwnThread {
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return process.terminationStatus
        }) ?? -1
    }

    /// Everything the service logged, once it has exited; for a failure's message (only evaluated then).
    var log: String { errors.text() }

    /// Everything the service logged, once it has exited, waited for on a thread of its own (``onOwnThread(_:)``):
    /// for the test's own checks.
    var finalLog: String {
        get async { (try? await onOwnThread { [errors] in errors.text() }) ?? "" }
    }

    /// What the service has logged so far, while it runs.
    var logSoFar: String { errors.text(waitingAtMost: 0) }

    /// A request to `path` (with its query), with a JSON `body` if given, on the main listener or the one `listener`
    /// names; the status and the body.
    func request(
        _ path: String, method: String = "GET", token: String? = nil, body: String? = nil, on listener: URL? = nil
    ) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: URL(string: path, relativeTo: listener ?? base)!)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// The JSON object answered at `path`.
    func json(_ path: String) async throws -> [String: Any] {
        let (_, body) = try await request(path)
        return try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
    }

    /// How many items match `query`, counted exactly up to 1000 (the page's end).
    func searchTotal(query: String = "doc") async throws -> Int {
        try await json("/search?q=\(query)&limit=1000")["total"] as? Int ?? -1
    }
}

/// Waits until `condition` holds, checking every 50 ms for at most `seconds`; whether it held.
func eventually(within seconds: Double = 60, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}
