import Foundation
@testable import Indexing
import PluginAPI
@testable import SQLiteStore
import Testing

@Suite("Importing NDJSON")
struct NDJSONImporterTests {
    @Test func validLinesAreImportedInBatchesAndBadOnesReportedWithTheirNumbers() async throws {
        let fixture = try IndexFixture()
        let file = fixture.directory.path("items.ndjson")
        let lines = [
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.test","title":"A"}"#,
            "not json",
            "",
            #"{"uniqueIdentifier":"b","domainIdentifier":"com.test","title":"B"}"#,
            String(repeating: "x", count: 300),
            #"{"uniqueIdentifier":"","domainIdentifier":"com.test","title":"no id"}"#,
            #"{"uniqueIdentifier":"c","domainIdentifier":"com.test","title":"C"}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let descriptor = open(file, O_RDONLY)
        defer { close(descriptor) }
        var rejected: [Int] = []
        let imported = try await NDJSONImporter(index: fixture.index, batchSize: 2, maxLineBytes: 200).importLines(of: descriptor) { line, _ in
            rejected.append(line)
        }
        #expect(imported == 3)
        #expect(rejected == [2, 5, 6], "the empty line is skipped, not rejected")
        #expect(try await fixture.index.itemCountsByDomain() == ["com.test": 3])
    }

    /// Items of about 1 kB in batches of up to 1,000 but 10 kB: cut by their size, without an item lost.
    @Test func batchesOfLargeItemsAreCutByTheirSize() async throws {
        let fixture = try IndexFixture()
        let file = fixture.directory.path("large.ndjson")
        let description = String(repeating: "word ", count: 200)
        let lines = (0..<25).map { n in
            #"{"uniqueIdentifier":"i\#(n)","domainIdentifier":"com.test","title":"Large \#(n)","contentDescription":"\#(description)"}"#
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let descriptor = open(file, O_RDONLY)
        defer { close(descriptor) }
        let importer = NDJSONImporter(index: fixture.index, batchSize: 1000, maxBatchBytes: 10_000)
        let imported = try await importer.importLines(of: descriptor) { line, reason in Issue.record("line \(line): \(reason)") }
        #expect(imported == 25)
        #expect(try await fixture.index.lastCommitNumber() == 3, "10 + 10 + 5 items of just over 1 kB")
        #expect(try await fixture.index.itemCountsByDomain() == ["com.test": 25])
    }
}
