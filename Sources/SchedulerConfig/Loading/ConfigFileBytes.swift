import Glibc
public import Foundation

/// One file of the configuration (a config file or a flag file) read whole through symbolic links, never past a
/// limit: a link to a huge file, a device or a pipe is refused after one `fstat` or one bounded read, not read
/// into memory. The loader and the watcher both read files this way, so they see the same bytes.
public enum ConfigFileBytes: Equatable, Sendable {
    /// Nothing is there (or a link points at nothing, as a ConfigMap's link does while `..data` swaps).
    case missing
    case bytes([UInt8])
    /// Longer than the limit, which it names.
    case tooLarge(limit: Int)
    /// There but not readable as a file, and why (`not a regular file`, `Permission denied`).
    case unreadable(String)

    /// Reads `url`: at most `limit` bytes, of a regular file.
    public static func read(_ url: URL, limit: Int) -> ConfigFileBytes {
        // O_NONBLOCK: opening a FIFO must not wait for a writer.
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let error = errno
            return error == ENOENT || error == ENOTDIR ? .missing : .unreadable(String(cString: strerror(error)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .unreadable(String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .unreadable("not a regular file") }
        guard status.st_size <= limit else { return .tooLarge(limit: limit) }
        // The file may grow while it is read: read until its end or past the limit.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(status.st_size))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let read = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { return .unreadable(String(cString: strerror(errno))) }
            if read == 0 { break }
            bytes += chunk[..<read]
            guard bytes.count <= limit else { return .tooLarge(limit: limit) }
        }
        return .bytes(bytes)
    }

    /// Why a file that is there cannot be used, for a problem report; `nil` for bytes and for a missing file.
    var refusal: String? {
        switch self {
        case .missing, .bytes: nil
        case .tooLarge(let limit): "the file is over the limit of \(limit) bytes; split it or shorten it"
        case .unreadable(let reason): "cannot read the file: \(reason)"
        }
    }
}
