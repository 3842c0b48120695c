import CSystemCalls
import Foundation
public import Store
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A lock file, opened once, whose exclusive lock can be taken and released many times: what a long-running
/// process keeps so that taking the lock for each pass opens nothing (no descriptor to run out of, no folder
/// whose permissions matter any more).
///
/// Exclusive across processes and between tasks of this process (a `flock` on one open file would not exclude
/// them), released by the operating system when the process dies. Deleting the file (an operator, a tmp cleaner)
/// cannot break it: a file lock alone would then be held on an unlinked inode while the next process creates and
/// locks a new file, so each take also binds an abstract Unix socket named after the file's folder and name, which
/// nothing on the file system can remove, and checks after `flock` that the path still names the locked file,
/// reopening it when not (so processes that started before and after the deletion lock the same file again).
///
/// The socket is a second line, never a way to lock everyone out: a name bound by a process of another user (not
/// root) is not ours and is ignored, and where no socket can be made (a sandbox without Unix sockets, no descriptor
/// left) the file lock alone decides, as it does between network namespaces, which do not share abstract names.
public final class LockFile: Sendable {
    /// The lock file could not be opened or created.
    public struct CannotOpen: StartupFailure {
        public let path: String
        public let reason: String
        public var description: String { "cannot open the lock file \(path): \(reason); check that its folder exists and is writable" }
        public var mayPassOnRetry: Bool { false }
    }

    /// What is held while the lock is taken.
    private struct State {
        var descriptor: Int32
        /// While the lock is taken, the bound abstract socket (-1 when none could be made); `nil` when it is free.
        var socket: Int32?
    }

    public let path: String
    /// The abstract socket's name: the lock file's canonical path, hashed to fit `sun_path`.
    private let socketName: [UInt8]
    private let state: Mutex<State>

    /// Opens (creating it and its folder if needed) the lock file at `path`.
    public init(path: String) throws(CannotOpen) {
        self.path = path
        try? FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true
        )
        let descriptor = try Self.open(path)
        socketName = Self.socketName(for: path)
        state = Mutex(State(descriptor: descriptor))
    }

    deinit {
        state.withLock { state in
            if let socket = state.socket, socket >= 0 { close(socket) }
            close(state.descriptor)
        }
    }

    /// Takes the lock without waiting; `false` when another process or another task of this one holds it.
    func tryLock() -> Bool {
        state.withLock { state in
            guard state.socket == nil else { return false }
            let socket: Int32?
            switch Self.bindAbstractSocket(socketName) {
            case .bound(let descriptor): socket = descriptor
            case .heldByAnotherHolder: return false
            case .unavailable: socket = nil
            }
            // A few rounds at most: each one follows a deletion or replacement of the file made meanwhile.
            for _ in 0..<8 {
                guard Self.lockExclusively(state.descriptor, boundTheSocket: socket != nil) else { break }
                if Self.pathNamesFile(path, descriptor: state.descriptor) {
                    state.socket = socket ?? -1
                    return true
                }
                flock(state.descriptor, LOCK_UN)
                // The folder may have gone with the file.
                try? FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
                guard let reopened = try? Self.open(path) else { break }
                close(state.descriptor)
                state.descriptor = reopened
            }
            if let socket { close(socket) }
            return false
        }
    }

    /// Takes the exclusive lock of `descriptor` without waiting. When this process just bound the lock's socket, no
    /// holder of ours can hold the file: a refusal is then a passing look (``isHeld(path:)``), so it tries again for
    /// up to 50 ms.
    private static func lockExclusively(_ descriptor: Int32, boundTheSocket: Bool) -> Bool {
        for attempt in 0..<(boundTheSocket ? 6 : 1) {
            if attempt > 0 { usleep(10_000) }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
        }
        return false
    }

    func unlock() {
        state.withLock { state in
            flock(state.descriptor, LOCK_UN)
            if let socket = state.socket, socket >= 0 { close(socket) }
            state.socket = nil
        }
    }

    /// Whether a process holds the lock of the file at `path` now, looked at without creating the file: first by
    /// asking its abstract socket (which outlives a deletion of the file, and asking disturbs nobody), then, where that
    /// says nothing, by holding the file's lock shared for an instant (no file there: nobody holds it); `nil` when the
    /// file cannot be read.
    public static func isHeld(path: String) -> Bool? {
        if case .heldByAnotherHolder = holderOfName(socketName(for: path)) { return true }
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT ? false : nil }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else { return errno == EWOULDBLOCK ? true : nil }
        flock(descriptor, LOCK_UN)
        return false
    }

    private static func open(_ path: String) throws(CannotOpen) -> Int32 {
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CannotOpen(path: path, reason: String(cString: strerror(errno))) }
        return descriptor
    }

    /// Whether `path` names the file open as `descriptor` (same device and inode): not after a deletion or a
    /// replacement.
    private static func pathNamesFile(_ path: String, descriptor: Int32) -> Bool {
        var opened = stat(), named = stat()
        guard fstat(descriptor, &opened) == 0, stat(path, &named) == 0 else { return false }
        return opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }

    /// What binding the lock's abstract socket found.
    private enum SocketOutcome {
        /// Bound (and listening, so others can ask who holds it): this process holds the name.
        case bound(Int32)
        /// Another process of this user (or root) holds it: it holds the lock.
        case heldByAnotherHolder
        /// No socket could be made, or the name is held by another user's process: the file lock alone decides.
        case unavailable
    }

    /// Binds the abstract socket `name` (close-on-exec, so plugins do not inherit it).
    private static func bindAbstractSocket(_ name: [UInt8]) -> SocketOutcome {
        var (address, length) = abstractAddress(name)
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return .unavailable }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        if bound == 0, listen(socket, SOMAXCONN) == 0 { return .bound(socket) }
        let failure = errno
        close(socket)
        return failure == EADDRINUSE ? holderOfName(name) : .unavailable
    }

    /// Who holds the bound name `name`: a holder of ours (this user, or root) listens on it; a name bound by another
    /// user's process, or not listened on, is someone else's and does not stop us.
    private static func holderOfName(_ name: [UInt8]) -> SocketOutcome {
        var (address, length) = abstractAddress(name)
        let probe = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard probe >= 0 else { return .heldByAnotherHolder }
        defer { close(probe) }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, length) }
        }
        // A full queue says nothing of who listens (another user can fill its own on purpose): the file lock decides.
        // A holder of ours listens with the largest queue, which probes alone take thousands of passes to fill.
        guard connected == 0 else { return .unavailable }
        var uid: UInt32 = 0
        guard csystem_peer_uid(probe, &uid) == 0 else { return .heldByAnotherHolder }
        return uid == geteuid() || uid == 0 ? .heldByAnotherHolder : .unavailable
    }

    /// The `sockaddr_un` of the abstract name `name` (a leading zero byte, no trailing one) and its length.
    private static func abstractAddress(_ name: [UInt8]) -> (sockaddr_un, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path) - 1
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in name.prefix(capacity).enumerated() { bytes[index + 1] = byte }
        }
        let length = (MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? MemoryLayout<sa_family_t>.size) + 1 + min(name.count, capacity)
        return (address, socklen_t(length))
    }

    /// `reindex-scheduler.lock.` and two 64-bit FNV-1a hashes of the folder's device and inode and the file's name,
    /// so every path naming the same file names the same socket, and two containers that share the network but
    /// not the file system (the same path, two folders) do not.
    private static func socketName(for path: String) -> [UInt8] {
        let url = URL(fileURLWithPath: path)
        var folder = stat()
        let folderIdentity = stat(url.deletingLastPathComponent().path, &folder) == 0
            ? "\(folder.st_dev):\(folder.st_ino)" : url.deletingLastPathComponent().standardizedFileURL.path
        let canonical = Array((folderIdentity + "/" + url.lastPathComponent).utf8)
        func fnv1a(_ seed: UInt64) -> String {
            var hash = seed
            for byte in canonical { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return String(hash, radix: 16)
        }
        return Array("reindex-scheduler.lock.\(fnv1a(0xcbf2_9ce4_8422_2325)).\(fnv1a(0x84222325_cbf29ce4))".utf8)
    }
}
