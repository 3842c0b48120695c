import Foundation
import Logging
import PluginAPI

/// One run of the external program, owned by the caller's task (docs/plugin-protocol.md is the program's side).
///
/// The program's standard output is read in that task, one line at a time, and each item, deletion or state sent on
/// (so a fast program is slowed to the pace of the index); a task group beside it forwards standard error to the log
/// and enforces the timeout. Every way out — the end, a failure, the timeout, too much output, cancellation — stops
/// the program's whole process group and reaps it before returning: nothing of the program outlives the run.
struct CommandRun {
    /// A run that did not complete.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let maxLineBytes = 4 * 1024 * 1024
    /// The exit status by which a program says the state it was handed is of no use: a full run follows at once.
    static let stateUnusableStatus: Int32 = 3

    let command: [String]
    let environment: [String: PluginEnvironment.Value]
    /// The account the program runs as; the service's own when `nil`.
    let user: SystemUser?
    let context: PluginContext
    let timeout: Duration
    let maxOutputBytes: Int

    /// Runs the program to produce the unit's items (`SCHEDULER_ACTION=produce`), in the run's mode, with the state it
    /// is handed in `SCHEDULER_STATE_FILE`.
    func produce(into sink: inout some ItemSink) async throws {
        let stateFile = try context.state.map { try StateFile(state: $0, readableBy: user) }
        defer { stateFile?.remove() }
        var variables = ["SCHEDULER_ACTION": "produce", "SCHEDULER_SYNC_MODE": context.mode.rawValue]
        variables["SCHEDULER_STATE_FILE"] = stateFile?.path
        let decoder = NDJSONItemDecoder()
        let (termination, errors) = try await run(variables) { number, bytes in
            switch try ControlLine.parse(bytes) {
            case nil:
                let item: SearchableItem?
                do {
                    item = try decoder.decode(bytes)
                } catch {
                    context.rejections.reject("line \(number)", reason: "\(error)")
                    return
                }
                if let item { try await sink.send(item) }
            case .delete(let identifier)?: try await sink.delete(identifier: identifier)
            case .state(let state)?: try await sink.send(state: state)
            case .check?: context.rejections.reject("line \(number)", reason: "a check line answers SCHEDULER_ACTION=check, not a run")
            }
        } invalidControl: { number, reason in
            context.rejections.reject("line \(number)", reason: reason)
        }
        switch termination {
        case .exited(0): break
        case .exited(Self.stateUnusableStatus) where context.mode != .full:
            throw SyncStateUnusable("\(command[0]) exited with status \(Self.stateUnusableStatus)")
        case .exited(let status): throw Failure(description: "\(command[0]) exited with status \(status)" + errors.excerpt)
        case .signalled(let signal): throw Failure(description: "\(command[0]) was killed by signal \(signal)" + errors.excerpt)
        }
    }

    /// Runs the program as `SCHEDULER_ACTION=check`: its one `{"check": {"ok": …, "message": …}}` line, or what its
    /// silence or exit status says.
    func check() async throws -> PluginCheck {
        var answer: PluginCheck?
        var problems: [String] = []
        let (termination, _) = try await run(["SCHEDULER_ACTION": "check", "SCHEDULER_SYNC_MODE": SyncMode.full.rawValue]) { number, bytes in
            guard case .check(let check)? = try ControlLine.parse(bytes) else {
                if bytes.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) {
                    problems.append("line \(number) is not a check line")
                }
                return
            }
            answer = answer ?? check
        } invalidControl: { number, reason in
            problems.append("line \(number): \(reason)")
        }
        let ended = switch termination {
        case .exited(0): ""
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "was killed by signal \(signal)"
        }
        if var answer {
            if !ended.isEmpty { answer.ok = false; answer.message += " (\(command[0]) \(ended))" }
            return answer
        }
        let why = ([ended.isEmpty ? "printed no check line" : ended] + problems.prefix(3)).joined(separator: "; ")
        return PluginCheck(ok: false, message: "\(command[0]) \(why): a program answers SCHEDULER_ACTION=check with one line {\"check\": {\"ok\": true, \"message\": \"…\"}}")
    }

    /// Runs the program with the variables `extra` beside its environment, handing each line of its standard output to
    /// `line` (a control line that does not read to `invalidControl`), and returns how it ended with the last words it
    /// wrote on standard error; throws on a timeout, on too much output, or what `line` throws.
    private func run(
        _ extra: [String: String], line: (Int, [UInt8]) async throws -> Void, invalidControl: (Int, String) -> Void
    ) async throws -> (termination: SpawnedProcess.Termination, errors: StandardErrorTail) {
        let process: SpawnedProcess
        let tail: StandardErrorTail
        do {
            var variables = try PluginEnvironment.make(environment, context: context, user: user, from: ProcessInfo.processInfo.environment)
            // What the source's env: gives the program may be a secret: never repeated in a run's error.
            tail = StandardErrorTail(redacting: environment.keys.compactMap { variables[$0] })
            variables.merge(extra) { $1 }
            process = try SpawnedProcess(
                executable: context.resolve(path: command[0]), arguments: Array(command.dropFirst()), directory: context.baseDirectory,
                environment: variables, user: user, ledger: context.processes
            )
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "cannot start \(command[0]): \(error)")
        }
        context.logger.info("started", metadata: ["command": "\(command)", "pid": "\(process.pid)", "action": "\(extra["SCHEDULER_ACTION"] ?? "")"])
        let output = PipeReader(fileDescriptor: process.output), errors = PipeReader(fileDescriptor: process.errors)
        let (program, logger, timeout) = (command[0], context.logger, timeout)

        return try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                await Self.forward(errors, of: program, to: logger, keepingIn: tail)
                return false
            }
            // Returns whether the timeout fired (and stopped the program); cancelled once the run has ended.
            group.addTask {
                do { try await Task.sleep(for: timeout) } catch { return false }
                process.signalGroup(SIGKILL)
                return true
            }
            var reading: (any Error)?
            do {
                try await withTaskCancellationHandler {
                    try await readLines(from: output, line: line, invalidControl: invalidControl)
                } onCancel: {
                    // A shutdown or an operator's cancel: the program may end cleanly, briefly (``SpawnedProcess/stop()``).
                    process.stop()
                }
            } catch {
                reading = error
                process.signalGroup(SIGKILL)
            }
            let termination = await process.endGroup()
            group.cancelAll()
            var timedOut = false
            for try await fired in group where fired { timedOut = true }

            if Task.isCancelled { throw CancellationError() }
            if timedOut { throw Failure(description: "\(program) did not finish within \(DurationText.format(timeout)) (timeout); stopped it" + tail.excerpt) }
            if let reading { throw reading }
            return (termination, tail)
        }
    }

    /// Reads the program's output line by line, each to `line`; a line too long, or a control line that does not
    /// read, is reported with its number.
    private func readLines(from output: PipeReader, line: (Int, [UInt8]) async throws -> Void, invalidControl: (Int, String) -> Void) async throws {
        var lines = AsyncLineReader(output, maxLineBytes: Self.maxLineBytes)
        var outputBytes = 0
        while let next = try await lines.next() {
            switch next {
            case .tooLong(let number, let byteCount):
                outputBytes += byteCount
                try checkSize(outputBytes)
                invalidControl(number, "line of \(byteCount) bytes is over the limit of \(Self.maxLineBytes) bytes")
            case .text(let number, let bytes):
                outputBytes += bytes.count + 1
                try checkSize(outputBytes)
                do {
                    try await line(number, bytes)
                } catch let invalid as ControlLine.Invalid {
                    invalidControl(number, invalid.reason)
                }
            }
        }
    }

    private func checkSize(_ outputBytes: Int) throws {
        if outputBytes > maxOutputBytes {
            throw Failure(description: "\(command[0]) printed more than \(maxOutputBytes) bytes (maxOutputBytes); stopped it")
        }
    }

    /// Logs each line the program writes on standard error (the source's `env:` values redacted), until the pipe ends,
    /// and keeps the last ones in `tail`.
    private static func forward(_ errors: PipeReader, of program: String, to logger: Logger, keepingIn tail: StandardErrorTail) async {
        var lines = AsyncLineReader(errors, maxLineBytes: 64 * 1024)
        while let line = try? await lines.next() {
            switch line {
            case .text(_, let bytes):
                logger.warning("stderr", metadata: ["command": "\(program)", "line": "\(tail.logLine(bytes))"])
                tail.append(bytes)
            case .tooLong(_, let byteCount):
                tail.appendOmitted(byteCount: byteCount)
            }
        }
    }
}
