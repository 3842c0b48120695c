import Foundation
import Indexing

#if canImport(Glibc)
import Glibc
#endif

/// Writes a file in the saved postings' binary form (``SavedPostingsFile``) so that a crash at any point leaves the
/// previous file or the new one whole: the bytes go to a temporary file beside it (a name of its own, locked while it
/// is written: ``removeLeftovers(of:)`` removes those nobody holds), which is flushed to disk, renamed over the file,
/// and the folder flushed in turn. Integers are written in the machine's order (a file written on a
/// machine of the other order fails the magic number and is rebuilt); every mebibyte of the file is checksummed, each
/// block's XXH64 seeded with the previous one's (``SavedFileChecksum``), and the last one ends the file.
final class SavedFileWriter {
    /// What a write of a saved file failed on: the path and the system's reason.
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot write \(path): \(reason)" }
    }

    private let path: String
    private let temporary: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Bytes written so far: where the next write lands in the file.
    private var offset = 0
    private var checksum = SavedFileChecksum()
    private var finished = false
    /// Asked at each block: a write given up fails, and the file it was to replace stays.
    private let isCancelled: @Sendable () -> Bool

    /// Starts the file that will replace `path` when ``finish()`` is called.
    init(replacing path: String, isCancelled: @escaping @Sendable () -> Bool = { false }) throws {
        self.path = path
        self.isCancelled = isCancelled
        temporary = "\(path).\(UInt64.random(in: 0...UInt64.max)).tmp"
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(path: temporary, reason: String(cString: strerror(errno))) }
        // Held until the descriptor closes, with the process if it dies.
        flock(descriptor, LOCK_EX)
        buffer.reserveCapacity(SavedFileChecksum.blockSize)
    }

    /// Removes the temporary files beside `path` that no writer holds (a process killed mid-save): each can be as
    /// large as the file, and nothing else would remove them.
    static func removeLeftovers(of path: String) {
        let url = URL(fileURLWithPath: path), prefix = url.lastPathComponent + "."
        let folder = url.deletingLastPathComponent()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let leftover = folder.appendingPathComponent(name).path
            let descriptor = open(leftover, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlink(leftover) }
            close(descriptor)
        }
    }

    deinit {
        // Not finished (a failure, or a write given up): the temporary file goes, the file it was to replace stays.
        if !finished { unlink(temporary) }
        close(descriptor)
    }

    func write<T: FixedWidthInteger>(_ value: T) throws {
        try withUnsafeBytes(of: value) { try write(bytes: $0) }
    }

    /// `bytes`, as they are.
    func write(bytes: UnsafeRawBufferPointer) throws {
        offset += bytes.count
        var rest = bytes[...]
        while !rest.isEmpty {
            let taken = rest.prefix(SavedFileChecksum.blockSize - buffer.count)
            buffer.append(contentsOf: taken)
            rest = rest.dropFirst(taken.count)
            if buffer.count == SavedFileChecksum.blockSize { try flush() }
        }
    }

    /// The elements of `array`, as they are in memory, after their count.
    func write<T: FixedWidthInteger>(counted array: [T]) throws {
        try write(UInt32(array.count))
        try array.withUnsafeBytes { try write(bytes: $0) }
    }

    /// Zeros up to the next multiple of `alignment` bytes: what comes next can be read in place from a mapping of
    /// the file (``SavedFileReader/inPlace(_:count:)``).
    func align(to alignment: Int) throws {
        let padding = (alignment - offset % alignment) % alignment
        try [UInt8](repeating: 0, count: padding).withUnsafeBytes { try write(bytes: $0) }
    }

    private func flush() throws {
        if isCancelled() { throw Failure(path: path, reason: "the write was given up (shutting down)") }
        checksum.add(block: buffer)
        try writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(path: temporary, reason: String(cString: strerror(errno))) }
            written += count
        }
    }

    /// Ends the file with its checksum, flushes it to disk and puts it in place of the file it replaces.
    func finish() throws {
        try endWithChecksum()
        try putInPlace()
    }

    /// Flushes the file ended with its checksum to disk and puts it in place of the file it replaces: after
    /// ``finish()``'s first step, or a scratch file's (``finishScratch()``) that is to be kept.
    func putInPlace() throws {
        guard fsync(descriptor) == 0 else { throw Failure(path: temporary, reason: String(cString: strerror(errno))) }
        guard rename(temporary, path) == 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        finished = true
        let folder = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}

extension SavedFileWriter {
    /// Ends the file with its checksum, and leaves it where it is, unflushed: a scratch file (a segment of a build,
    /// ``PostingsSegments``) read back under the temporary name this returns (``SavedFileReader``) while the writer
    /// lives, and removed with it, or after a crash by ``removeLeftovers(of:)``. A mapping of it outlives the removal.
    func finishScratch() throws -> String {
        try endWithChecksum()
        return temporary
    }

    private func endWithChecksum() throws {
        if !buffer.isEmpty { try flush() }
        try writeAll(withUnsafeBytes(of: checksum.value) { Array($0) })
    }
}

/// The checksum of a saved file: the XXH64 of each ``blockSize`` bytes, seeded with the previous block's, so that a
/// writer checksums as it goes and a reader checks in one pass.
struct SavedFileChecksum {
    static let blockSize = 1 << 20
    private(set) var value: UInt64 = 0

    mutating func add(block: some ContiguousBytes) {
        value = block.withUnsafeBytes { XXHash64.hash($0, seed: value) }
    }

    /// The checksum of `bytes`, block after block.
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var checksum = SavedFileChecksum()
        var start = 0
        while start < bytes.count {
            let end = min(start + blockSize, bytes.count)
            checksum.add(block: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = end
        }
        return checksum.value
    }
}
