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

    /// Starts `scheduler arguments…` left to run, its input empty and its outputs drained: a process whose pipes
    /// the test dropped would die of SIGPIPE at its first log line, before what the test means to do to it.
    static func startInBackground(_ arguments: [String]) throws -> (process: ChildProcess, output: Drain, errors: Drain) {
        let (process, stdin, stdout, stderr) = try start(arguments)
        try stdin.fileHandleForWriting.close()
        return (process, Drain(stdout), Drain(stderr))
    }

    /// Runs `scheduler arguments…` to completion, feeding it `input`; waits on a thread of its own
    /// (``onOwnThread(_:)``).
    static func run(
        _ arguments: [String], input: Data = Data(), directory: URL? = nil, environment: [String: String] = [:]
    ) async throws -> Outcome {
        let (process, stdin, stdout, stderr) = try start(arguments, directory: directory, environment: environment)
        // Drain both outputs while the process runs, so a chatty process never blocks on a full pipe.
        let output = Drain(stdout), errors = Drain(stderr)
        let writer = stdin.fileHandleForWriting
        return try await onOwnThread {
            writer.write(input)
            try writer.close()
            process.waitUntilExit()
            return Outcome(status: process.terminationStatus, stdout: output.text(), stderr: errors.text())
        }
    }
}

/// Reads a pipe to its end on a thread of its own.
final class Drain: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var data = Data()

    private let inode: String

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        inode = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(handle.fileDescriptor)")) ?? "?"
        Thread.detachNewThread { [self] in
            while case let chunk = handle.availableData, !chunk.isEmpty {
                lock.withLock { data += chunk }
            }
            done.signal()
        }
    }

    /// Everything written, once every writer has closed the pipe; after `seconds`, what was written so far, said so
    /// with the processes still holding it (a process the test started may have left a child holding the pipe): a
    /// test fails, it never hangs. With 0 seconds, what was written so far.
    func text(waitingAtMost seconds: Double = 120) -> String {
        let complete = done.wait(timeout: .now() + seconds) == .success
        // Signalled once at the end: given back, so that every later call returns at once too.
        if complete { done.signal() }
        let text = lock.withLock { String(decoding: data, as: UTF8.self) }
        return complete || seconds == 0 ? text : text + "\n[the pipe was still open after \(Int(seconds)) s: held by \(holders())]"
    }

    /// The processes that hold the pipe's write end open, with their command lines: the culprits a test names.
    private func holders() -> String {
        let me = ProcessInfo.processInfo.processIdentifier
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        let holding = pids.filter { pid in
            pid != me && ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).contains { fd in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) == inode
            }
        }
        return holding.map { pid in
            let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))).map {
                String(decoding: $0.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            } ?? "?"
            return "\(pid) (\(command))"
        }.joined(separator: ", ")
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
