import Foundation
import PluginAPI

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion and reports its wall time and peak resident memory.
enum ChildProcess {
    struct Measurement {
        var seconds: Double
        /// User and system CPU time of the child and what it waited for.
        var cpuSeconds: Double
        var peakMemoryBytes: Int
        var status: Int32
    }

    /// Runs `arguments` with standard input from `stdinPath` (or inherited) and output to /dev/null.
    static func measure(_ arguments: [String], stdinPath: String? = nil) throws -> Measurement {
        let start = ContinuousClock.now
        let pid = try BenchChildren.started {
            try ProcessSpawn.spawn(
                arguments[0], arguments: Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
                input: stdinPath.map(ProcessSpawn.Stream.file) ?? .inherited, errors: .inherited, searchingPath: true
            )
        }
        let (status, usage) = BenchChildren.wait(for: pid)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        func inSeconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return Measurement(
            seconds: seconds, cpuSeconds: inSeconds(usage.ru_utime) + inSeconds(usage.ru_stime), peakMemoryBytes: Int(usage.ru_maxrss) * 1024, status: status
        )
    }
}

extension ChildProcess {
    /// What `arguments` print on standard output, or `nil` when the program fails.
    static func output(_ arguments: [String]) throws -> String? {
        let pipe = Pipe()
        let pid = try BenchChildren.started {
            try ProcessSpawn.spawn(
                arguments[0], arguments: Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
                output: .descriptor(pipe.fileHandleForWriting.fileDescriptor), newGroup: true
            )
        }
        try pipe.fileHandleForWriting.close()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return BenchChildren.wait(for: pid).status == 0 ? text : nil
    }
}
