import Foundation
import ProcessSupport
import Testing

/// A program that the tests drive as an independent judge (`promtool`, `chromium` from Debian packages,
/// `openapi-spec-validator` from PyPI): found on `PATH`, or the test fails and says how to install it. Never skipped.
struct ExternalTool {
    let url: URL

    struct Missing: Error, CustomStringConvertible {
        var name: String
        var install: String
        var description: String { "\(name) is not installed: \(install) (.ci/run does)" }
    }

    init(_ name: String, debianPackage: String) throws {
        try self.init(name, install: "apt-get install -y \(debianPackage)")
    }

    /// A judge from PyPI: on `PATH`, or in `.build/ci-python`, where `.ci/run` installs the pinned version.
    init(_ name: String, pipPackage: String) throws {
        try self.init(
            name, install: "python3 -m venv .build/ci-python && .build/ci-python/bin/pip install \(pipPackage)",
            alsoIn: [repositoryRoot.appendingPathComponent(".build/ci-python/bin").path]
        )
    }

    /// The program at `url`, found by the caller (the interpreter beside a judge from PyPI).
    init(at url: URL) {
        self.url = url
    }

    private init(_ name: String, install: String, alsoIn extra: [String] = []) throws {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init) + extra
        guard let found = folders.map({ URL(fileURLWithPath: $0).appendingPathComponent(name) })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { throw Missing(name: name, install: install) }
        url = found
    }

    /// Runs the tool to completion with `input` on its standard input; killed after `timeout` seconds (the outcome
    /// then says so), so a test fails instead of hanging. Waits on a thread of its own (``onOwnThread(_:)``): a
    /// browser may take seconds.
    func run(_ arguments: [String], input: Data = Data(), directory: URL? = nil, timeout: Double = 120) async throws -> SchedulerProcess.Outcome {
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        let process = try ChildProcess(
            url, arguments: arguments, directory: directory,
            standardInput: .pipe(stdin), standardOutput: .pipe(stdout), standardError: .pipe(stderr)
        )
        let output = Drain(stdout), errors = Drain(stderr)
        let writer = stdin.fileHandleForWriting
        return try await onOwnThread {
            writer.write(input)
            try writer.close()
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            let timedOut = process.isRunning
            if timedOut { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let stderrText = errors.text(waitingAtMost: 10) + (timedOut ? "\n[killed after \(Int(timeout)) s]" : "")
            return SchedulerProcess.Outcome(status: process.terminationStatus, stdout: output.text(waitingAtMost: 10), stderr: stderrText)
        }
    }
}

/// The repository's root folder: where `deploy/` and `docs/` are, and `.build/` for the screenshots.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
