import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file mapped read-only into memory, unmapped when the last holder lets it go: what the members read in place from
/// a saved file point into (``SavedFileReader/inPlace(_:count:)``). Its pages are never written, so they can be
/// shared across threads; the kernel reads them from the file when touched and takes them back under pressure.
/// Saved files are only ever replaced by a rename, never changed in place, so the mapped file stays whole.
final class MappedFile: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    fileprivate init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// Takes every page of the mapping out of this process (`MADV_DONTNEED`): they stay in the kernel's page cache, and
    /// the next read of one maps it again (a minor fault, no read from the disk while the kernel keeps it). Readers on
    /// other threads go on meanwhile: the file is never written, so what they read again is what they read before.
    func giveBackPages() {
        madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count, MADV_DONTNEED)
    }
}

/// Reads a file ``SavedFileWriter`` wrote, mapped into memory (``MappedFile``): every read is bounds-checked and
/// throws ``Unusable`` past the end, so that no file (cut short, damaged, or not one of ours) can make the reader trap.
/// The file is read once: each block is checksummed as the reads pass it (``verifyChecksum()`` checks the whole at
/// the end, before anything read is used), and its pages are given back as they go (``releaseStep``), so that the
/// whole file is not resident at once (at ten million items, 4 GB); what is read in place is faulted in again when
/// a search touches it.
struct SavedFileReader: ~Copyable {
    /// Why a saved file cannot be used: it is then ignored, and what it held is built again.
    struct Unusable: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// The mapping, which what ``inPlace(_:count:)`` returns points into: whoever keeps those keeps it.
    let mappedFile: MappedFile
    private var mapping: UnsafeRawBufferPointer { mappedFile.bytes }
    /// The bytes before the checksum.
    private let content: UnsafeRawBufferPointer
    private var offset = 0
    /// The checksum of the blocks the reads have passed, and where they end.
    private var checksum = SavedFileChecksum()
    private var hashed = 0
    /// The bytes of the mapping given back to the system so far (``release(upTo:)``).
    private var released = 0
    /// How far the reads go past what was given back before the next pages are.
    static let releaseStep = 64 << 20

    /// Maps the file at `path`; `nil` when there is none.
    init?(path: String) throws(Unusable) {
        // Not blocking: a FIFO or a device under the file's name is refused below, never waited on.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw Unusable(reason: "cannot open it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Unusable(reason: "cannot read its size: \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Unusable(reason: "it is not a regular file") }
        let size = Int(info.st_size)
        guard size >= 16 else { throw Unusable(reason: "it is \(size) bytes long, shorter than any saved file") }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw Unusable(reason: "cannot map it: \(String(cString: strerror(errno)))")
        }
        madvise(address, size, MADV_SEQUENTIAL)
        mappedFile = MappedFile(bytes: UnsafeRawBufferPointer(start: address, count: size))
        content = UnsafeRawBufferPointer(rebasing: mappedFile.bytes[..<(size - 8)])
    }

    /// Throws unless every byte before the checksum was read, and the file ends with the checksum of those bytes
    /// (``SavedFileChecksum``): a file longer than what it says it holds, cut short, or changed since it was written.
    mutating func verifyChecksum() throws(Unusable) {
        guard offset == content.count else { throw Unusable(reason: "\(content.count - offset) bytes follow what it holds") }
        if hashed < content.count { checksum.add(block: UnsafeRawBufferPointer(rebasing: content[hashed...])) }
        release(upTo: content.count)
        let stored = mapping.loadUnaligned(fromByteOffset: content.count, as: UInt64.self)
        guard checksum.value == stored else { throw Unusable(reason: "its checksum does not match") }
        // What was read in place is read by searches from now on, here and there: no read-ahead of what follows.
        madvise(UnsafeMutableRawPointer(mutating: mapping.baseAddress), mapping.count, MADV_NORMAL)
    }

    /// Checksums the whole blocks the reads passed, and gives back their pages every ``releaseStep``.
    private mutating func advance(by bytes: Int) {
        offset += bytes
        while offset - hashed >= SavedFileChecksum.blockSize {
            checksum.add(block: UnsafeRawBufferPointer(rebasing: content[hashed..<(hashed + SavedFileChecksum.blockSize)]))
            hashed += SavedFileChecksum.blockSize
        }
        if hashed - released >= Self.releaseStep { release(upTo: hashed) }
    }

    /// Gives the mapping's pages before `end` back to the system: a private mapping of a file never written to, so
    /// a later read of them faults them in again from the file.
    private mutating func release(upTo end: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let until = end / page * page
        guard until > released, let base = mapping.baseAddress else { return }
        madvise(UnsafeMutableRawPointer(mutating: base + released), until - released, MADV_DONTNEED)
        released = until
    }

    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) throws(Unusable) -> T {
        let size = MemoryLayout<T>.size
        guard content.count - offset >= size else { throw Unusable(reason: "it ends early, at byte \(offset)") }
        defer { advance(by: size) }
        return content.loadUnaligned(fromByteOffset: offset, as: T.self)
    }

    /// `count` elements, copied out of the mapping.
    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self, count: Int) throws(Unusable) -> [T] {
        let size = MemoryLayout<T>.stride
        guard count >= 0, count <= (content.count - offset) / size else { throw Unusable(reason: "it ends early, at byte \(offset)") }
        defer { advance(by: count * size) }
        return [T](unsafeUninitializedCapacity: count) { elements, initialized in
            UnsafeMutableRawBufferPointer(elements).copyMemory(from: UnsafeRawBufferPointer(rebasing: content[offset..<(offset + count * size)]))
            initialized = count
        }
    }

    /// `count` elements where they are in the mapping, not copied: valid while ``mappedFile`` is held, and covered by
    /// the checksum once ``verifyChecksum()`` passed. They must start at a multiple of their alignment
    /// (``SavedFileWriter/align(to:)``).
    mutating func inPlace<T: FixedWidthInteger>(_: T.Type = T.self, count: Int) throws(Unusable) -> UnsafeBufferPointer<T> {
        let size = MemoryLayout<T>.stride
        guard count >= 0, count <= (content.count - offset) / size else { throw Unusable(reason: "it ends early, at byte \(offset)") }
        guard offset % MemoryLayout<T>.alignment == 0 else { throw Unusable(reason: "its members at byte \(offset) are not aligned") }
        defer { advance(by: count * size) }
        let start = UnsafeMutableRawPointer(mutating: content.baseAddress! + offset).bindMemory(to: T.self, capacity: count)
        return UnsafeBufferPointer(start: start, count: count)
    }

    /// Skips the zeros ``SavedFileWriter/align(to:)`` wrote.
    mutating func align(to alignment: Int) throws(Unusable) {
        for _ in 0..<(alignment - offset % alignment) % alignment {
            guard try read(UInt8.self) == 0 else { throw Unusable(reason: "its padding at byte \(offset - 1) is not zero") }
        }
    }

    /// An array ``SavedFileWriter/write(counted:)`` wrote.
    mutating func readCounted<T: FixedWidthInteger>(_: T.Type = T.self) throws(Unusable) -> [T] {
        try read(T.self, count: Int(read(UInt32.self)))
    }
}
