import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a file ``SavedFileWriter`` wrote, mapped into memory while it is read: every read is bounds-checked and
/// throws ``Unusable`` past the end, so that no file (cut short, damaged, or not one of ours) can make the reader trap.
struct SavedFileReader: ~Copyable {
    /// Why a saved file cannot be used: it is then ignored, and what it held is built again.
    struct Unusable: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    private let mapping: UnsafeRawBufferPointer
    /// The bytes before the checksum.
    private let content: UnsafeRawBufferPointer
    private var offset = 0

    /// Maps the file at `path`; `nil` when there is none.
    init?(path: String) throws(Unusable) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw Unusable(reason: "cannot open it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Unusable(reason: "cannot read its size: \(String(cString: strerror(errno)))") }
        let size = Int(info.st_size)
        guard size >= 16 else { throw Unusable(reason: "it is \(size) bytes long, shorter than any saved file") }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw Unusable(reason: "cannot map it: \(String(cString: strerror(errno)))")
        }
        madvise(address, size, MADV_SEQUENTIAL)
        mapping = UnsafeRawBufferPointer(start: address, count: size)
        content = UnsafeRawBufferPointer(rebasing: mapping[..<(size - 8)])
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: mapping.baseAddress), mapping.count)
    }

    /// Throws unless the file ends with the checksum of what comes before (``SavedFileChecksum``): a file cut short or
    /// changed since it was written.
    func verifyChecksum() throws(Unusable) {
        let stored = mapping.loadUnaligned(fromByteOffset: content.count, as: UInt64.self)
        guard SavedFileChecksum.of(content) == stored else { throw Unusable(reason: "its checksum does not match: cut short or damaged") }
    }

    /// Throws unless every byte before the checksum was read: a file longer than what it says it holds.
    func verifyEnd() throws(Unusable) {
        guard offset == content.count else { throw Unusable(reason: "\(content.count - offset) bytes follow what it holds") }
    }

    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) throws(Unusable) -> T {
        let size = MemoryLayout<T>.size
        guard content.count - offset >= size else { throw Unusable(reason: "it ends early, at byte \(offset)") }
        defer { offset += size }
        return content.loadUnaligned(fromByteOffset: offset, as: T.self)
    }

    /// `count` elements, copied out of the mapping.
    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self, count: Int) throws(Unusable) -> [T] {
        let size = MemoryLayout<T>.stride
        guard count >= 0, count <= (content.count - offset) / size else { throw Unusable(reason: "it ends early, at byte \(offset)") }
        defer { offset += count * size }
        return [T](unsafeUninitializedCapacity: count) { elements, initialized in
            UnsafeMutableRawBufferPointer(elements).copyMemory(from: UnsafeRawBufferPointer(rebasing: content[offset..<(offset + count * size)]))
            initialized = count
        }
    }

    /// An array ``SavedFileWriter/write(counted:)`` wrote.
    mutating func readCounted<T: FixedWidthInteger>(_: T.Type = T.self) throws(Unusable) -> [T] {
        try read(T.self, count: Int(read(UInt32.self)))
    }
}
