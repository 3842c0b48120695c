import Foundation

/// The memory this process holds of its own, as the kernel counts it: what a memory limit kills it for, unlike the
/// pages of files it maps, which the kernel takes back when it needs them.
package enum ProcessMemory {
    /// Bytes of resident memory that no file backs (the heap, the stacks): `/proc/self/statm`'s resident pages less its
    /// shared ones. `nil` where that file cannot be read.
    package static func ownResidentBytes() -> Int? {
        residentPages().map { ($0.resident - $0.shared) * pageSize }
    }

    /// Bytes of resident memory that files back (the pages of files it maps, its own code's among them): what
    /// `/proc/self/statm` counts as shared. `nil` where that file cannot be read.
    package static func mappedFileBytes() -> Int? {
        residentPages().map { $0.shared * pageSize }
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// `/proc/self/statm`'s resident and shared pages.
    private static func residentPages() -> (resident: Int, shared: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let pages = text.split(separator: " ").prefix(3).compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard pages.count == 3, pages[1] >= pages[2] else { return nil }
        return (pages[1], pages[2])
    }
}
