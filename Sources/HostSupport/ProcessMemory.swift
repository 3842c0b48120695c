import Foundation

/// The memory this process holds of its own, as the kernel counts it: what a memory limit kills it for, unlike the
/// pages of files it maps, which the kernel takes back when it needs them.
package enum ProcessMemory {
    /// Bytes of resident memory that no file backs (the heap, the stacks): `/proc/self/statm`'s resident pages less its
    /// shared ones. `nil` where that file cannot be read.
    package static func ownResidentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let pages = text.split(separator: " ").prefix(3).compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard pages.count == 3, pages[1] >= pages[2] else { return nil }
        return (pages[1] - pages[2]) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
