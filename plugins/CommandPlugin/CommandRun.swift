import Foundation
import PluginAPI
import Synchronization

/// One run of the external program: started on first demand, its output read one line at a time on a serial
/// queue of its own (so the pipe's blocking reads never hold a Swift concurrency thread, and a fast program is
/// slowed to the pace of the index instead of filling memory).
final class CommandRun: @unchecked Sendable {
    /// Why the program was stopped before it finished by itself.
    enum StopReason: Sendable {
        case cancelled, timedOut, outputTooLarge
    }

    /// A run that did not complete.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let maxLineBytes = 4 * 1024 * 1024

    private let command: [String]
    private let environment: [String: PluginEnvironment.Value]
    private let context: PluginContext
    private let timeout: Duration
    private let maxOutputBytes: Int
    private let queue = DispatchQueue(label: "command-plugin.output")
    private let stopReason = Mutex<StopReason?>(nil)
    private let decoder = NDJSONItemDecoder()

    // Touched only on `queue`.
    private var process: SpawnedProcess?
    private var reader: LineReaderBox?
    private var outputBytes = 0

    init(command: [String], environment: [String: PluginEnvironment.Value], context: PluginContext, timeout: Duration, maxOutputBytes: Int) {
        self.command = command
        self.environment = environment
        self.context = context
        self.timeout = timeout
        self.maxOutputBytes = maxOutputBytes
    }

    /// A run abandoned before its end (its consumer went away) stops the program and reaps it.
    deinit {
        guard let process, processIdentifier.withLock({ $0 }) != nil else { return }
        process.signalGroup(SIGKILL)
        Thread.detachNewThread {
            _ = process.waitForExit()
            close(process.output)
        }
    }

    /// The next item the program printed, or `nil` once it exited successfully.
    func next() async throws -> SearchableItem? {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.readItem() })
            }
        }
    }

    /// Stops the program; the pending read then ends and reports `reason`.
    func stop(reason: StopReason) {
        stopReason.withLock { if $0 == nil { $0 = reason } }
        // Signalled directly, not through the queue, which may be blocked reading the program's output; the
        // whole process group, so nothing the program started keeps the output pipe open.
        if let pid = processIdentifier.withLock({ $0 }) { kill(-pid, SIGKILL) }
    }

    private let processIdentifier = Mutex<Int32?>(nil)

    private func readItem() throws -> SearchableItem? {
        if process == nil { try start() }
        guard let reader else { return nil }
        while let line = try reader.next() {
            switch line {
            case .tooLong(let number, let byteCount):
                outputBytes += byteCount
                try checkOutputSize()
                context.rejections.reject("line \(number)", reason: "line of \(byteCount) bytes is over the limit of \(Self.maxLineBytes) bytes")
            case .text(let number, let bytes):
                outputBytes += bytes.count + 1
                try checkOutputSize()
                do {
                    if let item = try decoder.decode(bytes) { return item }
                } catch {
                    context.rejections.reject("line \(number)", reason: error.description)
                }
            }
        }
        return try finish()
    }

    private func start() throws {
        let environment = try PluginEnvironment.make(self.environment, context: context, from: ProcessInfo.processInfo.environment)
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess(
                executable: context.resolve(path: command[0]), arguments: Array(command.dropFirst()),
                directory: context.baseDirectory, environment: environment, ledger: context.processes
            )
        } catch {
            throw Failure(description: "cannot start \(command[0]): \(error)")
        }
        self.process = process
        processIdentifier.withLock { $0 = process.pid }
        reader = LineReaderBox(fileDescriptor: process.output, maxLineBytes: Self.maxLineBytes)
        forwardStandardError(process.errors)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(timeout.components.seconds * 1000))) { [weak self] in
            guard let self, self.processIdentifier.withLock({ $0 }) != nil else { return }
            self.stop(reason: .timedOut)
        }
        context.logger.info("started", metadata: ["command": "\(command)", "pid": "\(process.pid)"])
    }

    private func checkOutputSize() throws {
        if outputBytes > maxOutputBytes {
            stop(reason: .outputTooLarge)
            throw Failure(description: "\(command[0]) printed more than \(maxOutputBytes) bytes (maxOutputBytes); stopped it")
        }
    }

    private func finish() throws -> SearchableItem? {
        guard let process else { return nil }
        let termination = process.waitForExit()
        processIdentifier.withLock { $0 = nil }
        reader = nil
        close(process.output)
        switch stopReason.withLock({ $0 }) {
        case .cancelled?: throw CancellationError()
        case .timedOut?: throw Failure(description: "\(command[0]) did not finish within \(DurationText.format(timeout)) (timeout); stopped it")
        case .outputTooLarge?: throw Failure(description: "\(command[0]) printed more than \(maxOutputBytes) bytes (maxOutputBytes)")
        case nil: break
        }
        switch termination {
        case .exited(0): break
        case .exited(let status): throw Failure(description: "\(command[0]) exited with status \(status); see its standard error in the log")
        case .signalled(let signal): throw Failure(description: "\(command[0]) was killed by signal \(signal); see its standard error in the log")
        }
        return nil
    }

    /// Logs each line the program writes on standard error, and closes the pipe at its end.
    private func forwardStandardError(_ descriptor: Int32) {
        let logger = context.logger
        let program = command[0]
        Thread.detachNewThread {
            defer { close(descriptor) }
            var reader = LineReader(fileDescriptor: descriptor, maxLineBytes: 64 * 1024)
            while let line = try? reader.next() {
                if case .text(_, let bytes) = line {
                    logger.warning("stderr", metadata: ["command": "\(program)", "line": "\(String(decoding: bytes, as: UTF8.self))"])
                }
            }
        }
    }
}

/// A ``LineReader`` held by reference, so the run can keep it between reads.
final class LineReaderBox {
    private var reader: LineReader

    init(fileDescriptor: Int32, maxLineBytes: Int) {
        reader = LineReader(fileDescriptor: fileDescriptor, maxLineBytes: maxLineBytes)
    }

    func next() throws -> LineReader.Line? {
        try reader.next()
    }
}
