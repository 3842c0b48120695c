import Foundation

/// The process that runs a unit, written beside its `running` state: host name, process id and the process's
/// start time, so that a reader can tell a run in progress from one whose process died (a pid alone may have
/// been reused).
enum RunnerIdentity {
    /// This process.
    static let current = "\(ProcessInfo.processInfo.hostName) \(getpid()) \(startTime(of: getpid()) ?? 0)"

    /// Whether the process `runner` names still runs. A runner on another host cannot be checked from here and
    /// counts as alive.
    static func isAlive(_ runner: String) -> Bool {
        let parts = runner.split(separator: " ")
        guard parts.count == 3, let pid = Int32(parts[1]), let started = UInt64(parts[2]) else { return false }
        guard parts[0] == ProcessInfo.processInfo.hostName else { return true }
        return startTime(of: pid) == started
    }

    /// The start time of process `pid` in clock ticks since boot (field 22 of `/proc/PID/stat`), or `nil` when
    /// there is no such process or it has exited (a zombie not yet reaped).
    private static func startTime(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name (which may hold spaces and parentheses) start at field 3.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, fields[0] != "Z", fields[0] != "X" else { return nil }
        return UInt64(fields[19])
    }
}
