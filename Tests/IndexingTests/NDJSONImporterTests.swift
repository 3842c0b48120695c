import Foundation
@testable import Indexing
import PluginAPI
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
}
