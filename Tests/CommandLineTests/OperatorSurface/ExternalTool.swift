import Foundation
import ProcessSupport
import Testing

/// A program from a Debian package that the tests drive as an independent judge (`promtool`, `chromium`): found on
/// `PATH`, or the test fails and says which package to install. Never skipped.
struct ExternalTool {
    let url: URL

    struct Missing: Error, CustomStringConvertible {
        var name: String
        var package: String
        var description: String { "\(name) is not installed: apt-get install -y \(package) (.ci/run does)" }
    }

    init(_ name: String, debianPackage: String) throws {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let found = folders.map({ URL(fileURLWithPath: String($0)).appendingPathComponent(name) })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { throw Missing(name: name, package: debianPackage) }
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
