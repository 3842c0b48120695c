import Foundation

/// When a process started, in clock ticks since boot (field 22 of `/proc/PID/stat`): with its pid, what identifies
/// a process, since pids are reused.
package enum ProcessStartTime {
    /// The start time of process `pid`, or `nil` when there is no such process or it has exited (a zombie).
    package static func of(_ pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return nil
        }
        // Fields after the command name (which may hold spaces and parentheses) start at field 3, the state.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, fields[0] != "Z", fields[0] != "X" else { return nil }
        return UInt64(fields[19])
    }
}
