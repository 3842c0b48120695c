import Foundation

/// The memory this process may use: the machine's, or less when a control group says so (a container's memory limit,
/// systemd's `MemoryMax=` or `MemoryHigh=`, any cgroup v2 `memory.max` or `memory.high` or v1 `memory.limit_in_bytes`
/// on the way from this process's group to the root). Past `memory.high` the kernel does not kill the process but
/// reclaims its memory and throttles it, so hard that a build of the search postings there would crawl: it bounds what
/// the process may use as much as `memory.max` does. What caches size their default bound by, so that a small machine
/// or container is not asked for what a large one can give.
package enum MachineMemory {
    /// Bytes, read once.
    package static let available: UInt64 = available(physical: ProcessInfo.processInfo.physicalMemory) { path in
        try? String(contentsOfFile: path, encoding: .utf8)
    }

    /// The least of `physical` and the limits of the groups this process is in and of those above them, with `read`
    /// giving a file's text (`nil` when there is none): the groups named by `/proc/self/cgroup`, looked up in cgroup
    /// v2's tree (`/sys/fs/cgroup`) and v1's memory hierarchy (`/sys/fs/cgroup/memory`). Every group up to the root
    /// is read, since a limit anywhere above bounds this process too, and since a container that sees its host's
    /// path for its group (no cgroup namespace) has its own group mounted as the root.
    package static func available(physical: UInt64, read: (String) -> String?) -> UInt64 {
        var least = physical
        for (root, limitFiles, group) in groups(in: read("/proc/self/cgroup") ?? "") {
            var path = group
            while true {
                for limitFile in limitFiles {
                    if let text = read(root + path + "/" + limitFile), let limit = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)), limit > 0 {
                        least = min(least, limit)
                    }
                }
                guard !path.isEmpty else { break }
                path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            }
        }
        return least
    }

    /// The memory groups a `/proc/self/cgroup` text names (`hierarchy:controllers:path` a line): where each tree is
    /// mounted, its limits' files, and the group's path in it without a trailing `/` (empty for the root).
    private static func groups(in text: String) -> [(root: String, limitFiles: [String], path: String)] {
        var groups = [
            (root: "/sys/fs/cgroup", limitFiles: ["memory.max", "memory.high"], path: ""),
            (root: "/sys/fs/cgroup/memory", limitFiles: ["memory.limit_in_bytes"], path: ""),
        ]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[2].hasPrefix("/") else { continue }
            let path = parts[2].hasSuffix("/") ? String(parts[2].dropLast()) : String(parts[2])
            if parts[0] == "0" && parts[1].isEmpty {
                groups[0].path = path
            } else if parts[1].split(separator: ",").contains("memory") {
                groups[1].path = path
            }
        }
        return groups
    }
}
