import Crypto
import FuzzSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Indexing
import Logging
@testable import SchedulerService
import SQLiteStore
import StoreSupport
import Testing

/// A search copy's transfer between replicas (``SearchCopyTransfer``): what arrives in any chunks is what was sent,
/// and a transfer cut short, damaged, run on or sent without the replicas' token leaves no file in place; the route
/// opens to the credential derived from the admin token alone, and `/readyz` waits for a copy about to be fetched.
@Suite("The transfer of a search copy")
struct SearchCopyTransferTests {
    static let keys = SearchCopyKeys(adminToken: "the-replicas-token")!
    static let nonce = SearchCopyKeys.newNonce()

    /// A folder of its own, removed at the end.
    static func inFolder<T>(_ body: (String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("copy-transfer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder.path)
    }

    /// The bytes the service sends for a snapshot of these files, read back through Hummingbird's test client.
    static func sent(database: [UInt8], postings: [UInt8]?, in folder: String) async throws -> [UInt8] {
        try Data(database).write(to: URL(fileURLWithPath: folder + "/sent.sqlite"))
        if let postings { try Data(postings).write(to: URL(fileURLWithPath: folder + "/sent.postings")) }
        let snapshot = SearchCopySnapshot(
            database: try ReadOnlyFile(path: folder + "/sent.sqlite"), postings: try postings.map { _ in try ReadOnlyFile(path: folder + "/sent.postings") }
        )
        let router = Router()
        router.get("search-copy") { _, _ in Response(status: .ok, body: SearchCopyTransfer.body(of: snapshot, key: keys.transferKey(nonce: nonce))) }
        return try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/search-copy", method: .get) { Array($0.body.readableBytesView) }
        }
    }

    /// Feeds `bytes` to a receiver in chunks of random lengths, then finishes it.
    static func receive(
        _ bytes: [UInt8], in folder: String, key: SymmetricKey = keys.transferKey(nonce: nonce), using generator: inout SeededGenerator
    ) async throws {
        var receiver = try SearchCopyReceiver(database: folder + "/copy.sqlite", postings: folder + "/copy.sqlite.postings", key: key)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + Int.random(in: 1...70_000, using: &generator))
            try receiver.consume(ByteBuffer(bytes: bytes[offset..<end]))
            offset = end
        }
        try await receiver.finish()
    }

    static func randomBytes(_ count: Int, using generator: inout SeededGenerator) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test(arguments: [true, false]) func whatArrivesInAnyChunksIsWhatWasSent(withPostings: Bool) async throws {
        try await Self.inFolder { folder in
            var generator = SeededGenerator(seed: withPostings ? 1 : 2)
            let database = Self.randomBytes(3 << 20 | 17, using: &generator), postings = Self.randomBytes(1_000, using: &generator)
            let bytes = try await Self.sent(database: database, postings: withPostings ? postings : nil, in: folder)
            try await Self.receive(bytes, in: folder, using: &generator)
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/copy.sqlite")) == Data(database))
            #expect(FileManager.default.fileExists(atPath: folder + "/copy.sqlite.postings") == withPostings)
            if withPostings { #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/copy.sqlite.postings")) == Data(postings)) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.hasSuffix(".fetching") })
        }
    }

    /// 300 transfers cut short, with a byte changed, or run on: each refused with its reason, no file in place, and
    /// nothing left once the leftovers are removed.
    @Test func aTransferCutShortDamagedOrRunOnLeavesNothing() async throws {
        try await Self.inFolder { folder in
            var generator = SeededGenerator(seed: 62)
            let bytes = try await Self.sent(
                database: Self.randomBytes(200_000, using: &generator), postings: Self.randomBytes(5_000, using: &generator), in: folder
            )
            var reasons: Set<String> = []
            for round in 0..<300 {
                var damaged = bytes
                switch round % 3 {
                case 0: damaged.removeLast(Int.random(in: 1..<bytes.count, using: &generator))
                case 1: damaged[Int.random(in: 0..<bytes.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
                default: damaged += Self.randomBytes(Int.random(in: 1...100, using: &generator), using: &generator)
                }
                do {
                    try await Self.receive(damaged, in: folder, using: &generator)
                    Issue.record("round \(round): a damaged transfer was taken")
                } catch let error as SearchCopyTransferError {
                    reasons.insert(error.description.replacingOccurrences(of: #"\d+"#, with: "N", options: .regularExpression))
                }
                for file in ["copy.sqlite", "copy.sqlite.postings"] {
                    #expect(!FileManager.default.fileExists(atPath: folder + "/" + file), "round \(round): \(file) in place")
                }
                SearchCopyReceiver.removeLeftovers(database: folder + "/copy.sqlite", postings: folder + "/copy.sqlite.postings")
            }
            #expect(reasons.isSuperset(of: [
                "the search copy was cut short", "the search copy goes on past its MAC",
                "the search copy's MAC does not match what arrived (damaged, or sent without the replicas' admin token)",
            ]), "\(reasons)")
        }
    }

    /// A replica sends `/2`; it takes an earlier release's `/1` (whose file it migrates when it opens it) and refuses
    /// any other first line, before anything is written.
    @Test func anEarlierReleasesCopyIsTakenAndAnotherFormatRefused() async throws {
        try await Self.inFolder { folder in
            var generator = SeededGenerator(seed: 7)
            let database = Self.randomBytes(10_000, using: &generator)
            let bytes = try await Self.sent(database: database, postings: nil, in: folder)
            let sentLine = Array("SCHEDULER-SEARCH-COPY/2\n".utf8)
            #expect(Array(bytes.prefix(sentLine.count)) == sentLine)
            func signed(firstLine: String) -> [UInt8] {
                let body = Array(firstLine.utf8) + bytes.dropFirst(sentLine.count).dropLast(SHA256.byteCount)
                return body + Array(HMAC<SHA256>.authenticationCode(for: body, using: Self.keys.transferKey(nonce: Self.nonce)))
            }
            try await Self.receive(signed(firstLine: "SCHEDULER-SEARCH-COPY/1\n"), in: folder, using: &generator)
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/copy.sqlite")) == Data(database))
            try FileManager.default.removeItem(atPath: folder + "/copy.sqlite")
            let refused = await #expect(throws: SearchCopyTransferError.self) {
                try await Self.receive(signed(firstLine: "SCHEDULER-SEARCH-COPY/3\n"), in: folder, using: &generator)
            }
            #expect(refused?.description == "this is not a search copy of this version (its first line differs)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/copy.sqlite"))
        }
    }

    /// A transfer whole and intact but made for another nonce, or by a server with another token, is refused: only a
    /// peer holding the token can send a copy that is taken.
    @Test func aTransferForAnotherNonceOrFromAnotherTokenIsRefused() async throws {
        try await Self.inFolder { folder in
            var generator = SeededGenerator(seed: 5)
            let bytes = try await Self.sent(database: Self.randomBytes(10_000, using: &generator), postings: nil, in: folder)
            let others = [Self.keys.transferKey(nonce: SearchCopyKeys.newNonce()), SearchCopyKeys(adminToken: "another-token")!.transferKey(nonce: Self.nonce)]
            for key in others {
                await #expect(throws: SearchCopyTransferError.self) { try await Self.receive(bytes, in: folder, key: key, using: &generator) }
                #expect(!FileManager.default.fileExists(atPath: folder + "/copy.sqlite"))
            }
            #expect(Self.keys.credential != "the-replicas-token" && Self.keys.credential.count == 64)
        }
    }

    /// `GET /search-copy` opens to the derived credential, not the admin token, asks for a nonce, and answers 503
    /// while no copy is made (and on the SQLite store); `/readyz` answers 503 while a replica's copy has not decided
    /// where it comes from, where `/healthz`'s answer is the passes'.
    @Test func theRouteOpensToTheDerivedCredentialAndReadinessWaitsForTheCopy() async throws {
        try await Self.inFolder { folder in
            let unmade = SQLiteSearchCopy(path: folder + "/copy.sqlite", logger: .init(label: "test") { _ in SwiftLogNoOpLogHandler() })
            let credential = SearchCopyKeys(adminToken: SchedulerAPITests.token)!.credential
            for copy in [unmade, nil] as [SQLiteSearchCopy?] {
                try await SchedulerAPITests.withHarness(.memory, searchCopy: copy) { harness in
                    func status(_ method: HTTPRequest.Method = .get, token: String?, nonce: String?) async throws -> HTTPResponse.Status {
                        var headers: HTTPFields = [:]
                        if let token { headers[.authorization] = "Bearer \(token)" }
                        if let nonce { headers[HTTPField.Name(SearchCopyTransfer.nonceHeader)!] = nonce }
                        return try await harness.client.execute(uri: "/search-copy", method: method, headers: headers).status
                    }
                    #expect(try await status(token: nil, nonce: Self.nonce) == .unauthorized)
                    #expect(try await status(token: SchedulerAPITests.token, nonce: Self.nonce) == .unauthorized, "the admin token itself opens nothing here")
                    #expect(try await status(token: credential, nonce: nil) == .badRequest)
                    #expect(try await status(token: credential, nonce: "../etc/passwd") == .badRequest)
                    #expect(try await status(token: credential, nonce: Self.nonce) == .serviceUnavailable)
                    #expect(try await status(.head, token: credential, nonce: Self.nonce) == .serviceUnavailable)
                    let ready = try await harness.client.execute(uri: "/readyz", method: .get)
                    #expect(ready.status == (copy == nil ? .ok : .serviceUnavailable), "\(String(buffer: ready.body))")
                }
            }
        }
    }
}
