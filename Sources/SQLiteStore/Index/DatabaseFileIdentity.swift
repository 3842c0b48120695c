#if canImport(Glibc)
import Glibc
#endif

/// Which file a path named when it was opened (device and inode), to notice when the path comes to name
/// another file, or none: a database removed or replaced under a running process.
struct DatabaseFileIdentity: Sendable, Hashable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path` now, or `nil` when nothing is there.
    static func of(path: String) -> DatabaseFileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return DatabaseFileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
