import Foundation
import Logging
import PluginAPI

/// One run of the external program, owned by the caller's task.
///
/// The program's standard output is read in that task, one line at a time, and each item sent on (so a fast
/// program is slowed to the pace of the index); a task group beside it forwards standard error to the log and
/// enforces the timeout. Every way out — the end, a failure, the timeout, too much output, cancellation — stops the
/// program's whole process group and reaps it before returning: nothing of the program outlives the run.
struct CommandRun {
    /// A run that did not complete.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let maxLineBytes = 4 * 1024 * 1024

    let command: [String]
    let environment: [String: PluginEnvironment.Value]
    /// The account the program runs as; the service's own when `nil`.
    let user: SystemUser?
    let context: PluginContext
    let timeout: Duration
    let maxOutputBytes: Int

    func produce(into sink: inout some ItemSink) async throws {
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess(
                executable: context.resolve(path: command[0]), arguments: Array(command.dropFirst()), directory: context.baseDirectory,
                environment: try PluginEnvironment.make(environment, context: context, user: user, from: ProcessInfo.processInfo.environment),
                user: user, ledger: context.processes
            )
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "cannot start \(command[0]): \(error)")
        }
        context.logger.info("started", metadata: ["command": "\(command)", "pid": "\(process.pid)"])
        let output = PipeReader(fileDescriptor: process.output), errors = PipeReader(fileDescriptor: process.errors)
        let (program, logger, timeout) = (command[0], context.logger, timeout)

        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                await Self.forward(errors, of: program, to: logger)
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
                    try await readItems(from: output, into: &sink)
                } onCancel: {
                    process.signalGroup(SIGKILL)
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
            if timedOut { throw Failure(description: "\(program) did not finish within \(DurationText.format(timeout)) (timeout); stopped it") }
            if let reading { throw reading }
            switch termination {
            case .exited(0): break
            case .exited(let status): throw Failure(description: "\(program) exited with status \(status); see its standard error in the log")
            case .signalled(let signal): throw Failure(description: "\(program) was killed by signal \(signal); see its standard error in the log")
            }
        }
    }

    /// Reads the program's output line by line: each valid item is sent on, each bad line rejected with its number.
    private func readItems(from output: PipeReader, into sink: inout some ItemSink) async throws {
        var lines = AsyncLineReader(output, maxLineBytes: Self.maxLineBytes)
        let decoder = NDJSONItemDecoder()
        var outputBytes = 0
        while let line = try await lines.next() {
            switch line {
            case .tooLong(let number, let byteCount):
                outputBytes += byteCount
                try checkSize(outputBytes)
                context.rejections.reject("line \(number)", reason: "line of \(byteCount) bytes is over the limit of \(Self.maxLineBytes) bytes")
            case .text(let number, let bytes):
                outputBytes += bytes.count + 1
                try checkSize(outputBytes)
                let item: SearchableItem?
                do {
                    item = try decoder.decode(bytes)
                } catch {
                    context.rejections.reject("line \(number)", reason: error.description)
                    continue
                }
                if let item { try await sink.send(item) }
            }
        }
    }

    private func checkSize(_ outputBytes: Int) throws {
        if outputBytes > maxOutputBytes {
            throw Failure(description: "\(command[0]) printed more than \(maxOutputBytes) bytes (maxOutputBytes); stopped it")
        }
    }

    /// Logs each line the program writes on standard error, until the pipe ends.
    private static func forward(_ errors: PipeReader, of program: String, to logger: Logger) async {
        var lines = AsyncLineReader(errors, maxLineBytes: 64 * 1024)
        while let line = try? await lines.next() {
            if case .text(_, let bytes) = line {
                logger.warning("stderr", metadata: ["command": "\(program)", "line": "\(String(decoding: bytes, as: UTF8.self))"])
            }
        }
    }
}
