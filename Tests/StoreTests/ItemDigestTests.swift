import Foundation
import Indexing
import PluginAPI
import ProcessSupport
import Testing

/// The content digest that lets a store skip an unchanged item: XXH64 as the reference implementation computes it
/// (Debian's `xxhsum -H1`, an independent judge), over an encoding in which no two items look alike.
@Suite("Item digests")
struct ItemDigestTests {
    /// The reference's known answers.
    @Test(arguments: [("", "ef46db3751d8e999"), ("abc", "44bc2cf5ad770999"), ("Nobody inspects the spammish repetition", "fbcea83c8a378bf1")])
    func xxHash64GivesTheReferenceAnswers(input: String, expected: String) {
        #expect(String(XXHash64.hash(Array(input.utf8)), radix: 16).leftPadded(to: 16) == expected)
    }

    /// Random inputs of every length up to 300 bytes (each tail of the 32-, 8-, 4- and 1-byte steps) and one of a
    /// megabyte, hashed by `xxhsum -H1` and by ours.
    @Test func xxHash64AgreesWithXxhsum() throws {
        let xxhsum = URL(fileURLWithPath: "/usr/bin/xxhsum")
        guard FileManager.default.isExecutableFile(atPath: xxhsum.path) else {
            Issue.record("xxhsum is not installed: apt-get install -y xxhash (.ci/run does)")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xxhash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SystemRandomNumberGenerator()
        let inputs = (0...300).map { length in (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) } }
            + [(0..<1_048_583).map { _ in UInt8.random(in: 0...255, using: &generator) }]
        for (number, bytes) in inputs.enumerated() {
            try Data(bytes).write(to: folder.appendingPathComponent("\(number)"))
        }

        let output = Pipe()
        let process = try ChildProcess(
            xxhsum, arguments: ["-H1"] + inputs.indices.map { "\($0)" }, directory: folder, standardOutput: .pipe(output), standardError: .inherited
        )
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let theirs = Dictionary(uniqueKeysWithValues: printed.split(separator: "\n").map { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return (Int(fields[1])!, String(fields[0]))
        })
        #expect(theirs.count == inputs.count)
        for (number, bytes) in inputs.enumerated() {
            let ours = String(XXHash64.hash(bytes), radix: 16).leftPadded(to: 16)
            #expect(theirs[number] == ours, "\(bytes.count) bytes")
        }
    }

    static let item = {
        var item = SearchableItem(uniqueIdentifier: "a", domainIdentifier: "com.shop", title: "ab", displayName: "c", keywords: ["k"], rankingHint: 3)
        item.contentDescription = "d"
        item.thumbnailData = Data([1, 2])
        return item
    }()

    /// Text moved from one field to the next, split differently, or absent rather than empty: another digest.
    @Test func noTwoItemsEncodeAlike() {
        var variants: [SearchableItem] = [Self.item]
        func variant(_ change: (inout SearchableItem) -> Void) {
            var item = Self.item
            change(&item)
            variants.append(item)
        }
        variant { $0.title = "a"; $0.displayName = "bc" }
        variant { $0.title = "abc"; $0.displayName = nil }
        variant { $0.displayName = "" }
        variant { $0.keywords = ["k", ""] }
        variant { $0.keywords = ["", "k"] }
        variant { $0.keywords = []; $0.authorNames = ["k"] }
        variant { $0.thumbnailData = Data([1]) }
        variant { $0.thumbnailData = nil; $0.thumbnailURL = "" }
        variant { $0.rankingHint = nil }
        variant { $0.rankingHint = 4 }
        variant { $0.contentDescription = nil; $0.contentURL = "d" }
        variant { $0.contentCreationDate = Date(timeIntervalSince1970: 0) }
        variant { $0.contentModificationDate = Date(timeIntervalSince1970: 0) }
        variant { $0.expirationDate = Date(timeIntervalSince1970: 0) }
        variant { $0.relatedUniqueIdentifier = "b" }
        variant { $0.contentType = "public.text" }
        variant { $0.domainIdentifier = "com.shop.a" }
        variant { $0.uniqueIdentifier = "b" }
        let digests = variants.map(ItemDigest.of)
        #expect(Set(digests).count == variants.count, "\(digests)")
        #expect(ItemDigest.of(Self.item) == ItemDigest.of(Self.item), "and the same item, the same digest")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
