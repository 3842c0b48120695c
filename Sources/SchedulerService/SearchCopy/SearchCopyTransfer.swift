import Crypto
import Foundation
import HummingbirdCore
import Indexing
import NIOCore

/// How a search copy travels from one replica to another (`GET /search-copy`): a magic line, the database file and
/// the saved postings, each after its length (8 bytes, big-endian; 0 for postings the copy has none of), then the
/// SHA-256 of everything before. The receiver writes each file under a temporary name, and renames them into place
/// only once the digest matched: a transfer cut short, damaged or of another format leaves nothing.
enum SearchCopyTransfer {
    static let magic = Array("SCHEDULER-SEARCH-COPY/1\n".utf8)
    /// Bytes a read of a file sends at a time.
    static let chunkBytes = 1 << 20
    /// What the receiver's temporary files add to each file's name.
    static let partialSuffix = ".fetching"
    /// A length past this is refused (a peer speaking something else, or damage): far more than ten million items take.
    static let largestFile: UInt64 = 1 << 40

    /// The response that sends `snapshot`.
    static func body(of snapshot: SearchCopySnapshot) -> ResponseBody {
        let length = magic.count + 8 + snapshot.database.size + 8 + (snapshot.postings?.size ?? 0) + SHA256.byteCount
        return ResponseBody(contentLength: length) { writer in
            var digest = SHA256()
            func send(_ bytes: [UInt8]) async throws {
                digest.update(data: bytes)
                try await writer.write(ByteBuffer(bytes: bytes))
            }
            try await send(magic)
            for file in [snapshot.database, snapshot.postings] as [ReadOnlyFile?] {
                try await send(lengthBytes(file?.size ?? 0))
                guard let file else { continue }
                var offset = 0
                while offset < file.size {
                    let chunk = try file.read(at: offset, count: min(chunkBytes, file.size - offset))
                    // A file that shrank (someone truncated it): the receiver sees a short transfer and keeps nothing.
                    guard !chunk.isEmpty else { throw SearchCopyTransferError("the snapshot's file is shorter than when it was opened") }
                    try await send(chunk)
                    offset += chunk.count
                }
            }
            try await writer.write(ByteBuffer(bytes: Array(digest.finalize())))
            try await writer.finish(nil)
        }
    }

    static func lengthBytes(_ length: Int) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(length) >> (8 * UInt64($0))) }
    }
}

/// A search copy being received (``SearchCopyTransfer``): bytes go to the temporary files as they arrive, and
/// ``finish()`` checks the digest, syncs and renames them into place.
struct SearchCopyReceiver {
    private enum Part {
        case magic, databaseLength, database(remaining: UInt64), postingsLength, postings(remaining: UInt64), digest, done
    }

    private let databasePath: String
    private let postingsPath: String
    private var database: PartialFile
    private var postings: PartialFile?
    private var part = Part.magic
    /// Bytes of the current fixed-size part (magic, a length, the digest) received so far.
    private var pending: [UInt8] = []
    private var digest = SHA256()
    private var expectedDigest: [UInt8] = []

    /// Starts receiving into temporary files beside `databasePath` and `postingsPath` (any left by an earlier try
    /// replaced).
    init(database databasePath: String, postings postingsPath: String) throws {
        (self.databasePath, self.postingsPath) = (databasePath, postingsPath)
        database = try PartialFile(creating: databasePath + SearchCopyTransfer.partialSuffix)
    }

    /// Takes the next bytes of the transfer.
    mutating func consume(_ buffer: ByteBuffer) throws {
        var bytes = buffer.readableBytesView[...]
        while !bytes.isEmpty {
            switch part {
            case .magic, .databaseLength, .postingsLength, .digest:
                let wanted = fixedLength(of: part) - pending.count
                pending += bytes.prefix(wanted)
                bytes = bytes.dropFirst(wanted)
                if pending.count == fixedLength(of: part) { try endFixedPart() }
            case .database(let remaining), .postings(let remaining):
                let taken = Array(bytes.prefix(Int(min(remaining, UInt64(bytes.count)))))
                bytes = bytes.dropFirst(taken.count)
                digest.update(data: taken)
                let left = remaining - UInt64(taken.count)
                if case .database = part {
                    try database.append(taken)
                    part = left == 0 ? .postingsLength : .database(remaining: left)
                } else {
                    try postings?.append(taken)
                    part = left == 0 ? .digest : .postings(remaining: left)
                }
            case .done:
                throw SearchCopyTransferError("the search copy goes on past its digest")
            }
        }
    }

    private func fixedLength(of part: Part) -> Int {
        switch part {
        case .magic: SearchCopyTransfer.magic.count
        case .digest: SHA256.byteCount
        default: 8
        }
    }

    private mutating func endFixedPart() throws {
        let bytes = pending
        pending = []
        if case .digest = part {
            expectedDigest = bytes
            part = .done
            return
        }
        digest.update(data: bytes)
        switch part {
        case .magic:
            guard bytes == SearchCopyTransfer.magic else { throw SearchCopyTransferError("this is not a search copy of this version (its first line differs)") }
            part = .databaseLength
        case .databaseLength:
            let length = try Self.length(bytes)
            guard length > 0 else { throw SearchCopyTransferError("the search copy has no database") }
            part = .database(remaining: length)
        default:
            let length = try Self.length(bytes)
            if length > 0 { postings = try PartialFile(creating: postingsPath + SearchCopyTransfer.partialSuffix) }
            part = length > 0 ? .postings(remaining: length) : .digest
        }
    }

    private static func length(_ bytes: [UInt8]) throws -> UInt64 {
        let length = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard length <= SearchCopyTransfer.largestFile else { throw SearchCopyTransferError("the search copy claims a file of \(length) bytes") }
        return length
    }

    /// Checks that the whole transfer arrived intact, then syncs both files and renames them into place (the postings
    /// first: a database without them builds its own, while postings without their database are never read).
    func finish() throws {
        guard case .done = part else { throw SearchCopyTransferError("the search copy was cut short") }
        guard Array(digest.finalize()) == expectedDigest else { throw SearchCopyTransferError("the search copy's digest does not match what arrived") }
        try postings?.commit(as: postingsPath)
        try database.commit(as: databasePath)
    }

    /// Removes whatever a failed transfer left.
    static func removeLeftovers(database: String, postings: String) {
        for path in [database, postings] { try? FileManager.default.removeItem(atPath: path + SearchCopyTransfer.partialSuffix) }
    }
}

/// A file written in one go under a temporary name, then synced and renamed to its own.
private final class PartialFile {
    let path: String
    private let descriptor: Int32

    init(creating path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SearchCopyTransferError("could not create \(path): \(String(cString: strerror(errno)))") }
        self.path = path
    }

    deinit { close(descriptor) }

    func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { throw SearchCopyTransferError("could not write \(path): \(String(cString: strerror(errno)))") }
                written += result
            }
        }
    }

    func commit(as final: String) throws {
        guard fsync(descriptor) == 0 else { throw SearchCopyTransferError("could not sync \(path): \(String(cString: strerror(errno)))") }
        guard rename(path, final) == 0 else { throw SearchCopyTransferError("could not rename \(path): \(String(cString: strerror(errno)))") }
    }
}

/// A transfer of a search copy that cannot be used.
struct SearchCopyTransferError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
