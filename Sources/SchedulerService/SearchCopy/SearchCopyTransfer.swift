import Crypto
import Foundation
import HostSupport
import HummingbirdCore
import Indexing
import NIOCore

/// How a search copy travels from one replica to another (`GET /search-copy`): a magic line, the database file and
/// the saved postings, each after its length (8 bytes, big-endian; 0 for postings the copy has none of), then an
/// HMAC-SHA-256 of everything before (``SearchCopyKeys``). The receiver writes each file under a temporary name
/// (``SearchCopySnapshot/partialSuffix``), and renames them into place only once the MAC matched: a transfer cut
/// short, damaged, of another format, or from a server without the replicas' admin token leaves nothing.
enum SearchCopyTransfer {
    /// The first line sent. `/2` since descriptions are packed (``PackedText``): a release that speaks only `/1` would
    /// misread them, and refuses it (then makes its copy from the store).
    static let magic = Array("SCHEDULER-SEARCH-COPY/2\n".utf8)
    /// The first lines accepted: `/1` is an earlier release's copy, whose file this one migrates when it opens it.
    static let magicsAccepted = [magic, Array("SCHEDULER-SEARCH-COPY/1\n".utf8)]
    /// Bytes a read of a file sends at a time.
    static let chunkBytes = 1 << 20
    /// A length past this is refused (a peer speaking something else, or damage): far more than ten million items take.
    static let largestFile: UInt64 = 1 << 40
    /// Free space a transfer leaves on the disk it writes to, beyond the files themselves.
    static let spareBytes: UInt64 = 256 << 20
    /// The request header carrying the receiver's nonce (32 hexadecimal digits), which the MAC's key is derived from.
    static let nonceHeader = "Search-Copy-Nonce"

    /// The response that sends `snapshot`, authenticated with `key`.
    static func body(of snapshot: SearchCopySnapshot, key: SymmetricKey) -> ResponseBody {
        let length = magic.count + 8 + snapshot.database.size + 8 + (snapshot.postings?.size ?? 0) + SHA256.byteCount
        return ResponseBody(contentLength: length) { writer in
            var mac = HMAC<SHA256>(key: key)
            func send(_ bytes: [UInt8]) async throws {
                mac.update(data: bytes)
                try await writer.write(ByteBuffer(bytes: bytes))
            }
            try await send(magic)
            for file in [snapshot.database, snapshot.postings] as [ReadOnlyFile?] {
                try await send(lengthBytes(file?.size ?? 0))
                guard let file else { continue }
                var offset = 0
                while offset < file.size {
                    let (start, count) = (offset, min(chunkBytes, file.size - offset))
                    let chunk = try await offThePool { _ in try file.read(at: start, count: count) }
                    // A file that shrank (someone truncated it): the receiver sees a short transfer and keeps nothing.
                    guard !chunk.isEmpty else { throw SearchCopyTransferError("the snapshot's file is shorter than when it was opened") }
                    try await send(chunk)
                    offset += chunk.count
                }
            }
            try await writer.write(ByteBuffer(bytes: Array(mac.finalize())))
            try await writer.finish(nil)
        }
    }

    static func lengthBytes(_ length: Int) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(length) >> (8 * UInt64($0))) }
    }
}

/// What replicas sharing an admin token derive from it for their search copies, so that the token itself never
/// travels to a peer (whose address the roll of replicas may hold after it went away): the bearer credential of
/// `GET /search-copy`, and the key of each transfer's MAC, drawn from the receiver's nonce, which proves the sender
/// holds the token too.
struct SearchCopyKeys: Sendable {
    private let root: SymmetricKey

    init?(adminToken: String?) {
        guard let adminToken, !adminToken.isEmpty else { return nil }
        root = SymmetricKey(data: Array(adminToken.utf8))
    }

    /// `Authorization: Bearer <credential>` of `GET /search-copy`: it opens nothing else.
    var credential: String { Self.hex(derived("scheduler search-copy credential")) }

    /// The MAC key of the transfer asked for with `nonce`.
    func transferKey(nonce: String) -> SymmetricKey {
        SymmetricKey(data: derived("scheduler search-copy transfer " + nonce))
    }

    /// A new nonce: 16 random bytes in hexadecimal.
    static func newNonce() -> String {
        hex((0..<16).map { _ in UInt8.random(in: 0...255) })
    }

    /// Whether `nonce` is one ``newNonce()`` could make.
    static func isNonce(_ nonce: String) -> Bool {
        nonce.utf8.count == 32 && nonce.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private func derived(_ purpose: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array(purpose.utf8), using: root))
    }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}

/// A search copy being received (``SearchCopyTransfer``): bytes go to the temporary files as they arrive, and
/// ``finish()`` checks the MAC, syncs and renames them into place.
struct SearchCopyReceiver: Sendable {
    private enum Part {
        case magic, databaseLength, database(remaining: UInt64), postingsLength, postings(remaining: UInt64), mac, done
    }

    private let databasePath: String
    private let postingsPath: String
    private var database: PartialFile
    private var postings: PartialFile?
    private var part = Part.magic
    /// Bytes of the current fixed-size part (magic, a length, the MAC) received so far.
    private var pending: [UInt8] = []
    private var mac: HMAC<SHA256>
    private var expectedMAC: [UInt8] = []

    /// Starts receiving into temporary files beside `databasePath` and `postingsPath` (any left by an earlier try
    /// replaced), checking the transfer's MAC with `key`.
    init(database databasePath: String, postings postingsPath: String, key: SymmetricKey) throws {
        (self.databasePath, self.postingsPath) = (databasePath, postingsPath)
        mac = HMAC<SHA256>(key: key)
        database = try PartialFile(creating: databasePath + SearchCopySnapshot.partialSuffix)
    }

    /// Takes the next bytes of the transfer.
    mutating func consume(_ buffer: ByteBuffer) throws {
        var bytes = buffer.readableBytesView[...]
        while !bytes.isEmpty {
            switch part {
            case .magic, .databaseLength, .postingsLength, .mac:
                let wanted = fixedLength(of: part) - pending.count
                pending += bytes.prefix(wanted)
                bytes = bytes.dropFirst(wanted)
                if pending.count == fixedLength(of: part) { try endFixedPart() }
            case .database(let remaining), .postings(let remaining):
                let taken = Array(bytes.prefix(Int(min(remaining, UInt64(bytes.count)))))
                bytes = bytes.dropFirst(taken.count)
                mac.update(data: taken)
                let left = remaining - UInt64(taken.count)
                if case .database = part {
                    try database.append(taken)
                    part = left == 0 ? .postingsLength : .database(remaining: left)
                } else {
                    try postings?.append(taken)
                    part = left == 0 ? .mac : .postings(remaining: left)
                }
            case .done:
                throw SearchCopyTransferError("the search copy goes on past its MAC")
            }
        }
    }

    private func fixedLength(of part: Part) -> Int {
        switch part {
        case .magic: SearchCopyTransfer.magic.count
        case .mac: SHA256.byteCount
        default: 8
        }
    }

    private mutating func endFixedPart() throws {
        let bytes = pending
        pending = []
        if case .mac = part {
            expectedMAC = bytes
            part = .done
            return
        }
        mac.update(data: bytes)
        switch part {
        case .magic:
            guard SearchCopyTransfer.magicsAccepted.contains(bytes) else { throw SearchCopyTransferError("this is not a search copy of this version (its first line differs)") }
            part = .databaseLength
        case .databaseLength:
            let length = try Self.length(bytes)
            guard length > 0 else { throw SearchCopyTransferError("the search copy has no database") }
            try database.requireRoom(for: length)
            part = .database(remaining: length)
        default:
            let length = try Self.length(bytes)
            if length > 0 {
                postings = try PartialFile(creating: postingsPath + SearchCopySnapshot.partialSuffix)
                try postings?.requireRoom(for: length)
            }
            part = length > 0 ? .postings(remaining: length) : .mac
        }
    }

    private static func length(_ bytes: [UInt8]) throws -> UInt64 {
        let length = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard length <= SearchCopyTransfer.largestFile else { throw SearchCopyTransferError("the search copy claims a file of \(length) bytes") }
        return length
    }

    /// Checks that the whole transfer arrived intact and from a holder of the token, then syncs both files and renames
    /// them into place (the postings first: a database without them builds its own, while postings without their
    /// database are never read). Syncing gigabytes, it runs off the concurrency pool.
    func finish() async throws {
        guard case .done = part else { throw SearchCopyTransferError("the search copy was cut short") }
        guard Array(mac.finalize()) == expectedMAC else {
            throw SearchCopyTransferError("the search copy's MAC does not match what arrived (damaged, or sent without the replicas' admin token)")
        }
        let (postings, database, postingsPath, databasePath) = (postings, database, postingsPath, databasePath)
        try await offThePool { _ in
            try postings?.commit(as: postingsPath)
            try database.commit(as: databasePath)
        }
    }

    /// Removes whatever a failed transfer left.
    static func removeLeftovers(database: String, postings: String) {
        for path in [database, postings] { try? FileManager.default.removeItem(atPath: path + SearchCopySnapshot.partialSuffix) }
    }
}

/// A file written in one go under a temporary name, then synced and renamed to its own.
private final class PartialFile: Sendable {
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

    /// Throws unless the file's disk has room for `length` more bytes and ``SearchCopyTransfer/spareBytes``.
    func requireRoom(for length: UInt64) throws {
        var disk = statvfs()
        guard fstatvfs(descriptor, &disk) == 0 else { return }
        let free = UInt64(disk.f_bavail) * UInt64(disk.f_frsize)
        guard free >= length + SearchCopyTransfer.spareBytes else {
            throw SearchCopyTransferError("the search copy needs \(length / 1_000_000) MB and its disk has \(free / 1_000_000) MB free")
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
