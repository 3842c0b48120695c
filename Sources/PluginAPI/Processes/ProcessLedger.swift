import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The process groups plugins have started and not yet reaped, kept in a file beside the database, so that the
/// next pass stops any that outlived a scheduler killed while they ran (`SIGKILL` leaves a plugin's process group
/// running; under systemd the service's control group is stopped with it anyway).
///
/// Each line of the file is a group leader's pid and start time: a leftover group is stopped only while its leader
/// is still that same process, never a later process that reused the pid.
public final class ProcessLedger: Sendable {
    /// The ledger file, or `nil` to keep the groups in memory only.
    public let path: String?
    private let groups = Mutex<[Int32: UInt64]>([:])

    public init(path: String?) {
        self.path = path
    }

    /// Records a group whose leader `pid` has just started.
    public func started(_ pid: Int32) {
        groups.withLock { groups in
            groups[pid] = ProcessStartTime.of(pid) ?? 0
            write(groups)
        }
    }

    /// Forgets the group of `pid`, whose leader has been reaped.
    public func ended(_ pid: Int32) {
        groups.withLock { groups in
            groups[pid] = nil
            write(groups)
        }
    }

    /// Kills (`SIGKILL`) every group the file lists whose leader is still the process recorded, and empties the
    /// file; returns the pids stopped. Call it holding the pass lock, when no plugin of this database runs.
    public func stopLeftovers() -> [Int32] {
        guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8), !text.isEmpty else { return [] }
        var stopped: [Int32] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let pid = Int32(fields[0]), pid > 1, let started = UInt64(fields[1]) else { continue }
            if ProcessStartTime.of(pid) == started, kill(-pid, SIGKILL) == 0 { stopped.append(pid) }
        }
        groups.withLock { write($0) }
        return stopped
    }

    /// Replaces the file with `groups`, atomically (a crash leaves the old or the new list, never half of one); with
    /// no group running there is no file, so a pass with nothing to stop reads nothing and writes nothing.
    private func write(_ groups: [Int32: UInt64]) {
        guard let path else { return }
        guard !groups.isEmpty else {
            unlink(path)
            return
        }
        let text = groups.map { "\($0.key) \($0.value)\n" }.joined()
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else { return }
        rename(temporary, path)
    }
}
