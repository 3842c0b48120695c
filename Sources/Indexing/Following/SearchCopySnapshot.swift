#if canImport(Glibc)
import Glibc
#endif

/// A search copy as it stood at one moment, for a new replica to start from instead of reading the whole feed: its
/// database file and the saved postings beside it, each opened for reading. Both were unlinked once opened (or are
/// files the copy replaces whole), so nothing is left behind when the last holder lets them go.
public final class SearchCopySnapshot: Sendable {
    /// What a fetch adds to the name of each file while it writes it (``SearchCopySource``): the copy removes such
    /// files left by a crash.
    public static let partialSuffix = ".fetching"

    public let database: ReadOnlyFile
    /// `nil` when the copy had no saved postings yet (the new replica builds its own).
    public let postings: ReadOnlyFile?

    public init(database: ReadOnlyFile, postings: ReadOnlyFile?) {
        self.database = database
        self.postings = postings
    }
}

/// A search copy that another replica can start from.
public protocol SearchCopySnapshotting: Sendable {
    /// The copy as it stands (consistent: one commit, with the postings of that commit or an earlier one); `nil` while
    /// no copy is made.
    func snapshot() async throws -> SearchCopySnapshot?
}

/// Where a new search copy can come from faster than the whole feed: another replica's snapshot.
public protocol SearchCopySource: Sendable {
    /// Writes a copy's database at `database` and its saved postings at `postings` (when it has some), each written
    /// whole and synced under its name and ``SearchCopySnapshot/partialSuffix``, then renamed into place; returns where
    /// it came from, or `nil` when no source had one to give.
    func fetchCopy(database: String, postings: String) async throws -> String?
}

/// A file opened for reading at offsets (`pread`), by several readers at once; closed when the last holder lets it go.
public final class ReadOnlyFile: Sendable {
    /// Its length in bytes when it was opened.
    public let size: Int
    /// Where it was opened, for errors: it may be unlinked since.
    private let path: String
    private let descriptor: Int32

    /// Opens the file at `path`; throws ``ReadOnlyFileError`` when it cannot.
    public init(path: String) throws(ReadOnlyFileError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadOnlyFileError(path: path, action: "open", code: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw ReadOnlyFileError(path: path, action: "read the size of", code: code)
        }
        (self.path, self.descriptor) = (path, descriptor)
        size = Int(status.st_size)
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes from `offset`: fewer only at the end of the file.
    public func read(at offset: Int, count: Int) throws(ReadOnlyFileError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
            }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { throw ReadOnlyFileError(path: path, action: "read", code: errno) }
            if read == 0 { break }
            filled += read
        }
        return filled == count ? bytes : Array(bytes.prefix(filled))
    }
}

/// A file of a snapshot could not be opened or read.
public struct ReadOnlyFileError: Error, CustomStringConvertible {
    public var path: String
    public var action: String
    public var code: Int32

    public var description: String { "could not \(action) \(path): \(String(cString: strerror(code)))" }
}
