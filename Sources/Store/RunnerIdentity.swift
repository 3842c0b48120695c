import Foundation
import PluginAPI

/// The process that runs a unit, written beside its `running` state: host name, process id and the process's
/// start time, so that a reader can tell a run in progress from one whose process died (a pid alone may have
/// been reused). It is also a replica's id by default.
public enum RunnerIdentity {
    /// This process.
    public static let current = "\(ProcessInfo.processInfo.hostName) \(getpid()) \(ProcessStartTime.of(getpid()) ?? 0)"

    /// Whether the process `runner` names still runs. A runner on another host cannot be checked from here and
    /// counts as alive.
    public static func isAlive(_ runner: String) -> Bool {
        let parts = runner.split(separator: " ")
        guard parts.count == 3, let pid = Int32(parts[1]), let started = UInt64(parts[2]) else { return false }
        guard parts[0] == ProcessInfo.processInfo.hostName else { return true }
        return ProcessStartTime.of(pid) == started
    }
}
