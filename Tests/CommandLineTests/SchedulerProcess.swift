import Foundation
import ProcessSupport
import Testing

/// The built `scheduler` executable, run as a user would run it.
enum SchedulerProcess {
    /// What a finished run printed and returned.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable beside the test bundle in the build folder.
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["SCHEDULER_BINARY"] { return URL(fileURLWithPath: path) }
        var folder = Bundle.main.bundleURL
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("scheduler")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return Bundle.main.bundleURL.appendingPathComponent("scheduler")
    }

    /// Starts `scheduler arguments…` with standard input, output and error on pipes.
    static func start(
        _ arguments: [String], directory: URL? = nil, environment extra: [String: String] = [:]
    ) throws -> (ChildProcess, stdin: Pipe, stdout: Pipe, stderr: Pipe) {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "SCHEDULER_CONFIG")
        environment.removeValue(forKey: "SCHEDULER_ADMIN_TOKEN")
        environment.merge(extra) { $1 }
        let pipes = (Pipe(), Pipe(), Pipe())
        let process = try ChildProcess(
            executable, arguments: arguments, directory: directory, environment: environment,
            standardInput: .pipe(pipes.0), standardOutput: .pipe(pipes.1), standardError: .pipe(pipes.2)
        )
        return (process, pipes.0, pipes.1, pipes.2)
    }

    /// Runs `scheduler arguments…` to completion, feeding it `input`.
    static func run(
        _ arguments: [String], input: Data = Data(), directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> Outcome {
        let (process, stdin, stdout, stderr) = try start(arguments, directory: directory, environment: environment)
        // Drain both outputs while the process runs, so a chatty process never blocks on a full pipe.
        let output = Drain(stdout), errors = Drain(stderr)
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: output.text(), stderr: errors.text())
    }
}

/// Reads a pipe to its end on a thread of its own.
final class Drain: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var data = Data()

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while case let chunk = handle.availableData, !chunk.isEmpty {
                lock.withLock { data += chunk }
            }
            done.signal()
        }
    }

    /// Everything written, once every writer has closed the pipe; after `seconds`, what was written so far, said so
    /// (a process the test started may have left a child holding the pipe): a test fails, it never hangs.
    func text(waitingAtMost seconds: Double = 120) -> String {
        let complete = done.wait(timeout: .now() + seconds) == .success
        let text = lock.withLock { String(decoding: data, as: UTF8.self) }
        return complete ? text : text + "\n[the pipe was still open after \(Int(seconds)) s: some process holds it]"
    }
}

/// A temporary folder for one test's config and database.
final class Workspace {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    /// Copies the repository's example `config/` here, with the `examples/` its relative paths name; returns the
    /// copy's config folder.
    func copyExampleConfig() throws -> String {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for folder in ["config", "examples"] {
            try FileManager.default.copyItem(at: repository.appendingPathComponent(folder), to: url.appendingPathComponent(folder))
        }
        return path("config")
    }

    /// `--database` pointing at this workspace's database.
    var database: [String] { ["--database", path("index.sqlite")] }
}

/// One NDJSON line for a simple item.
func itemLine(_ id: String, domain: String = "com.test", title: String) -> String {
    #"{"uniqueIdentifier":"\#(id)","domainIdentifier":"\#(domain)","title":"\#(title)","contentURL":"test://\#(id)"}"#
}

/// Runs `body`, which blocks (a process to wait for, a sleep), on a thread of its own: an async test then never holds
/// one of the few threads Swift concurrency runs every test on (two on a 2-core machine), which would stall the
/// others, PostgreSQL transactions included. The test waits for it, so what `body` touches is not shared meanwhile.
func onOwnThread<T: Sendable>(_ body: @escaping () throws -> T) async throws -> T {
    let work = UncheckedWork(run: body)
    return try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work.run() }) }
    }
}

/// A closure handed to one other thread while its caller waits for it.
private struct UncheckedWork<T>: @unchecked Sendable {
    let run: () throws -> T
}
