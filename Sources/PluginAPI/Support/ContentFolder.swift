import CSystemCalls
public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A folder of content (posts, pages) that a plugin lists and reads by relative path, never reaching anything
/// outside it, even while someone swaps its sub-folders for symbolic links.
///
/// The folder is opened once; every file and sub-folder is opened relative to that descriptor by the kernel with
/// `openat2(RESOLVE_BENEATH)`, which refuses any resolution (`..`, an absolute or escaping symbolic link) that
/// would leave the folder, so what is checked is what is read. Symbolic links that stay inside are followed.
/// Where the kernel offers no `openat2`, paths are walked one component at a time with `O_NOFOLLOW`, and no
/// symbolic link is followed at all. What is read is checked on its open descriptor: a regular file (a pipe or a
/// device is refused without blocking), within a size limit.
///
/// Hard links are not symbolic links: a hard link inside the folder to a file outside it is that file, and is
/// read. Only someone who can write the folder can make one; keep it writable only by those whose content you
/// would publish anyway.
public final class ContentFolder: Sendable {
    /// Why a file or the folder is not read.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public let path: String
    private let descriptor: Int32
    /// Whether the kernel confines resolution with `openat2`.
    private let confinesLinks: Bool

    /// Opens the folder at `path` (which the config names, so it may itself be reached through links).
    public init(path: String) throws(Refusal) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Refusal("cannot open the folder \(path): \(Self.lastError); check that it exists and is readable") }
        let probe = csystem_open_beneath(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        confinesLinks = probe >= 0
        if probe >= 0 { close(probe) }
    }

    deinit { close(descriptor) }

    /// The relative paths of the regular files under the folder whose extension (lowercased) is in `extensions`,
    /// sorted. Hidden entries are skipped; each folder is listed once, so links cannot make the walk loop.
    public func files(withExtensions extensions: Set<String>) throws(Refusal) -> [String] {
        var found: [String] = []
        var visited = Set<[UInt64]>()
        var folders = [""]
        while let relative = folders.popLast() {
            let directory: Int32
            do {
                directory = relative.isEmpty ? dup(descriptor) : try openBeneath(relative, flags: O_RDONLY | O_DIRECTORY)
            } catch {
                continue
            }
            var info = stat()
            guard fstat(directory, &info) == 0, visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted,
                let stream = fdopendir(directory)
            else {
                close(directory)
                continue
            }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard !name.hasPrefix(".") else { continue }
                let child = relative.isEmpty ? name : relative + "/" + name
                switch Int32(entry.pointee.d_type) {
                case Int32(DT_DIR): folders.append(child)
                case Int32(DT_REG), Int32(DT_LNK), Int32(DT_UNKNOWN):
                    if extensions.contains((name as NSString).pathExtension.lowercased()) {
                        found.append(child)
                    } else if entry.pointee.d_type != DT_REG, isFolder(child) {
                        folders.append(child)
                    }
                default: continue
                }
            }
        }
        return found.sorted()
    }

    /// The size and last modification (seconds since 1970) of the regular file at `relative`, refused as ``read(_:maxBytes:)``
    /// refuses it: what an incremental run compares to tell a changed file without reading it.
    public func attributes(of relative: String) throws(Refusal) -> (size: Int, modified: Double) {
        let file = try openBeneath(relative, flags: O_RDONLY | O_NONBLOCK | O_NOCTTY)
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw Refusal("not a regular file") }
        return (Int(info.st_size), Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// The contents of the regular file at `relative`, refused when it is outside the folder, not a regular file,
    /// or over `maxBytes`.
    public func read(_ relative: String, maxBytes: Int) throws(Refusal) -> Data {
        let file = try openBeneath(relative, flags: O_RDONLY | O_NONBLOCK | O_NOCTTY)
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw Refusal("not a regular file") }
        guard Int(info.st_size) <= maxBytes else { throw Refusal("\(info.st_size) bytes, over the limit of \(maxBytes)") }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count <= maxBytes {
            let count = Glibc.read(file, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Refusal("cannot read: \(Self.lastError)") }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
        throw Refusal("over the limit of \(maxBytes) bytes")
    }

    private func isFolder(_ relative: String) -> Bool {
        guard let directory = try? openBeneath(relative, flags: O_RDONLY | O_DIRECTORY) else { return false }
        close(directory)
        return true
    }

    /// Opens `relative` beneath the folder.
    private func openBeneath(_ relative: String, flags: Int32) throws(Refusal) -> Int32 {
        if confinesLinks {
            let opened = csystem_open_beneath(descriptor, relative, flags | O_CLOEXEC)
            if opened >= 0 { return opened }
            if errno == EXDEV { throw Refusal("it leads outside the folder (through '..' or a symbolic link); it is not read") }
            throw Refusal("cannot open: \(Self.lastError)")
        }
        var current = dup(descriptor)
        let parts = relative.split(separator: "/")
        for (index, part) in parts.enumerated() {
            guard part != "..", part != "." else {
                close(current)
                throw Refusal("it leads outside the folder (through '..'); it is not read")
            }
            let isLast = index == parts.count - 1
            let next = openat(current, String(part), (isLast ? flags : O_RDONLY | O_DIRECTORY) | O_NOFOLLOW | O_CLOEXEC)
            let failure = errno
            close(current)
            guard next >= 0 else {
                if failure == ELOOP || failure == ENOTDIR {
                    throw Refusal("it is reached through a symbolic link, which is not followed on this system; it is not read")
                }
                throw Refusal("cannot open: \(String(cString: strerror(failure)))")
            }
            current = next
        }
        return current
    }

    private static var lastError: String { String(cString: strerror(errno)) }
}
