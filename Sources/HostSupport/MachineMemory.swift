import Foundation

/// The memory this process may use: the machine's, or less when its control group (a container's memory limit,
/// cgroup v2 `memory.max` or v1 `memory.limit_in_bytes`) says so. What caches size their default bound by, so that a
/// small machine or container is not asked for what a large one can give.
package enum MachineMemory {
    /// Bytes, read once.
    package static let available: UInt64 = {
        let physical = ProcessInfo.processInfo.physicalMemory
        let limits = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"].compactMap { path in
            (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return ([physical] + limits).filter { $0 > 0 }.min() ?? physical
    }()
}
