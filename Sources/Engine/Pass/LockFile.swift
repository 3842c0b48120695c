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
/// locks a new file, so each take also binds an abstract Unix socket named after the file's path, which nothing
/// on the file system can remove, and checks after `flock` that the path still names the locked file, reopening it
/// when not (so processes that started before and after the deletion lock the same file again).
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
        /// The bound abstract socket while the lock is taken; `nil` when it is free.
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
            if let socket = state.socket { close(socket) }
            close(state.descriptor)
        }
    }

    /// Takes the lock without waiting; `false` when another process or another task of this one holds it.
    func tryLock() -> Bool {
        state.withLock { state in
            guard state.socket == nil, let socket = Self.bindAbstractSocket(socketName) else { return false }
            // A few rounds at most: each one follows a deletion or replacement of the file made meanwhile.
            for _ in 0..<8 {
                guard flock(state.descriptor, LOCK_EX | LOCK_NB) == 0 else { break }
                if Self.pathNamesFile(path, descriptor: state.descriptor) {
                    state.socket = socket
                    return true
                }
                flock(state.descriptor, LOCK_UN)
                guard let reopened = try? Self.open(path) else { break }
                close(state.descriptor)
                state.descriptor = reopened
            }
            close(socket)
            return false
        }
    }

    func unlock() {
        state.withLock { state in
            flock(state.descriptor, LOCK_UN)
            if let socket = state.socket { close(socket) }
            state.socket = nil
        }
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

    /// Binds the abstract socket `name` (close-on-exec, so plugins do not inherit it); `nil` when another process
    /// has it bound, which means it holds this lock.
    private static func bindAbstractSocket(_ name: [UInt8]) -> Int32? {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            // The leading zero byte makes it abstract: a name in the kernel, no file.
            for (index, byte) in name.prefix(bytes.count - 1).enumerated() { bytes[index + 1] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + min(name.count, MemoryLayout.size(ofValue: address.sun_path) - 1))
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        guard bound == 0 else {
            close(socket)
            return nil
        }
        return socket
    }

    /// `reindex-scheduler.lock.` and two 64-bit FNV-1a hashes of the canonical path (the folder's symbolic links
    /// followed), so every path naming the same file names the same socket.
    private static func socketName(for path: String) -> [UInt8] {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let canonicalFolder = realpath(folder, nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        } ?? folder
        let canonical = Array((canonicalFolder + "/" + url.lastPathComponent).utf8)
        func fnv1a(_ seed: UInt64) -> String {
            var hash = seed
            for byte in canonical { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return String(hash, radix: 16)
        }
        return Array("reindex-scheduler.lock.\(fnv1a(0xcbf2_9ce4_8422_2325)).\(fnv1a(0x84222325_cbf29ce4))".utf8)
    }
}
