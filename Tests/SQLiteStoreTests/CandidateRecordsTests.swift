import Foundation
import FuzzSupport
@testable import Indexing
@testable import SQLiteStore
import Testing

/// The candidate records the postings' build keeps (``CandidateRecords``): each row's candidate read back from them,
/// made by a build or read from a saved file, holds what a candidate made from the row's text holds, so that a search
/// scores it alike.
@Suite("Candidate records")
struct CandidateRecordsTests {
    /// A random field: pieces of every kind, now and then longer than what scoring reads, or absent.
    static func randomField(_ random: inout SeededGenerator) -> [UInt8]? {
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return nil
        case 1: return (0..<2_000).flatMap { _ in FoldedWordsTests.pieces.randomElement(using: &random)! }
        default: return (0..<Int.random(in: 0...30, using: &random)).flatMap { _ in FoldedWordsTests.pieces.randomElement(using: &random)! }
        }
    }

    /// Rows of random fields, ranking hints and pages, by ascending id.
    static func randomRows(_ count: Int, _ random: inout SeededGenerator) -> [(id: Int64, commit: Int64, hint: Int?, page: String, fields: [[UInt8]?])] {
        var id = Int64.random(in: -1_000...1_000, using: &random)
        return (0..<count).map { _ in
            id += Int64.random(in: 1...1_000, using: &random)
            let hint: Int? = [nil, 0, 100, -7, Int.max, Int.min].randomElement(using: &random)!
            let page = String(decoding: (0..<Int.random(in: 0...40, using: &random)).flatMap { _ in FoldedWordsTests.pieces.randomElement(using: &random)! }, as: UTF8.self)
            return (id, Int64.random(in: 1...Int64.max, using: &random), hint, page, SearchColumn.allCases.map { _ in randomField(&random) })
        }
    }

    /// Expects the candidate `records` give for each row to hold what a candidate of the row's text holds.
    static func expectRecorded(_ rows: [(id: Int64, commit: Int64, hint: Int?, page: String, fields: [[UInt8]?])], in records: CandidateRecords) {
        #expect(records.count == rows.count)
        for row in rows {
            guard let index = records.index(of: row.id), let recorded = records.candidate(at: index) else {
                Issue.record("row \(row.id) has no record")
                continue
            }
            #expect(records.commitNumber(at: index) == row.commit, "a record is of one version of its row")
            // From the same bytes, as SQLite gives both: a string would change bytes that are not UTF-8.
            let fromText = withBuffers(row.fields) { buffers in
                CandidateRanking.Candidate(id: row.id, rankingHint: row.hint, page: row.page) { buffers[$0.position] }
            }
            #expect(recorded.rankingHint == row.hint && recorded.page == row.page && recorded.packedBytes == 0)
            for column in SearchColumn.allCases {
                #expect(CandidateTests.words(of: recorded, column) == CandidateTests.words(of: fromText, column), "row \(row.id), \(column)")
            }
        }
    }

    static func built(_ rows: [(id: Int64, commit: Int64, hint: Int?, page: String, fields: [[UInt8]?])], maxWords: Int = 1_000_000) -> CandidateRecords? {
        var builder = CandidateRecords.Builder(maxWords: maxWords)
        for row in rows {
            withBuffers(row.fields) { buffers in builder.add(id: row.id, commitNumber: row.commit, rankingHint: row.hint, page: row.page) { buffers[$0.position] } }
        }
        return builder.finish()
    }

    /// Calls `body` with a buffer of each field's bytes (`nil`: absent), valid during the call.
    static func withBuffers<Result>(_ fields: [[UInt8]?], _ body: ([UnsafeBufferPointer<UInt8>?]) -> Result) -> Result {
        let buffers = fields.map { field in
            field.map { field in
                let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(field.count, 1))
                _ = buffer.initialize(fromContentsOf: field)
                return UnsafeBufferPointer(rebasing: buffer[..<field.count])
            }
        }
        defer { buffers.forEach { $0?.deallocate() } }
        return body(buffers)
    }

    @Test func aRecordReadsBackAsTheCandidateOfItsRowsText() throws {
        var random = SeededGenerator(seed: 6201)
        let rows = Self.randomRows(300, &random)
        let records = try #require(Self.built(rows))
        Self.expectRecorded(rows, in: records)
        #expect(records.index(of: rows[0].id - 1) == nil, "a row the read did not see has no record")
    }

    /// The path of a file in `directory` that holds the records of `rows`, as a save writes them.
    static func saved(_ rows: [(id: Int64, commit: Int64, hint: Int?, page: String, fields: [[UInt8]?])], in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("records")
        let writer = try SavedFileWriter(replacing: path)
        try #require(built(rows)).write(to: writer)
        try writer.finish()
        return path
    }

    @Test func recordsReadBackFromTheirFileHoldTheSame() throws {
        var random = SeededGenerator(seed: 6202)
        let rows = Self.randomRows(300, &random)
        let directory = try TemporaryDirectory()
        let path = try Self.saved(rows, in: directory)
        guard var file = try SavedFileReader(path: path) else {
            Issue.record("the file written is not there")
            return
        }
        let records = try CandidateRecords(reading: &file)
        try file.verifyChecksum()
        Self.expectRecorded(rows, in: records)
    }

    /// Records read from a file whose bytes were changed past its checksum's reach (a crafted file): each change is
    /// refused, or gives records every one of which reads within the file or is no record (its row is then read from
    /// SQLite). Ids out of order are refused.
    @Test func damagedRecordsAreRefusedOrReadWithinTheFile() throws {
        var random = SeededGenerator(seed: 6203)
        let rows = Self.randomRows(60, &random)
        let directory = try TemporaryDirectory()
        let path = try Self.saved(rows, in: directory)
        let original = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        var refused = 0, unreadable = 0
        for round in 0..<400 {
            var bytes = original
            for _ in 0..<(1 + round % 3) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                bytes[at] = round % 2 == 0 ? UInt8.random(in: 0...255, using: &random) : bytes[at] ^ (1 << UInt8.random(in: 0...7, using: &random))
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            guard var file = try SavedFileReader(path: path) else { continue }
            guard let records = try? CandidateRecords(reading: &file) else {
                refused += 1
                continue
            }
            unreadable += Self.readEveryRecord(of: records)
        }
        #expect(refused > 0, "changes to the ids or counts are refused: \(refused) of 400")
        #expect(unreadable > 0, "others leave records that do not parse: \(unreadable)")
    }

    /// Reads every record's candidate, page and words (a damaged record's words may not be as many as it says: that
    /// only ranks its row wrongly); how many records do not parse (and so have no commit either).
    static func readEveryRecord(of records: CandidateRecords) -> Int {
        var unreadable = 0
        for index in 0..<records.count {
            guard let candidate = records.candidate(at: index) else {
                unreadable += 1
                #expect(records.commitNumber(at: index) == nil, "a record without a candidate has no commit either")
                continue
            }
            _ = candidate.page
            candidate.withFields { fields in
                for column in SearchColumn.allCases { fields[column]?.forEach { _ in true } }
            }
        }
        return unreadable
    }

    /// A file whose ids are out of order (two swapped) is refused: a search would not find their records.
    @Test func idsOutOfOrderAreRefused() throws {
        var random = SeededGenerator(seed: 6204)
        let rows = Self.randomRows(20, &random)
        let directory = try TemporaryDirectory()
        let path = try Self.saved(rows, in: directory)
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let ids: [Int64] = rows.map(\.id)
        let idBytes: [UInt8] = ids.withUnsafeBytes { Array($0) }
        let found: Int? = Self.offset(of: idBytes, in: bytes)
        let at = try #require(found, "the ids are written as one array")
        let swapped: [Int64] = [ids[1], ids[0]]
        swapped.withUnsafeBytes { bytes.replaceSubrange(at..<(at + 16), with: $0) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        guard var file = try SavedFileReader(path: path) else {
            Issue.record("the file written is not there")
            return
        }
        let records = try? CandidateRecords(reading: &file)
        #expect(records == nil, "records whose ids are out of order are refused")
    }

    /// Where `pattern` first starts in `bytes`.
    static func offset(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard pattern.count <= bytes.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where bytes[start..<(start + pattern.count)].elementsEqual(pattern) { return start }
        return nil
    }

    @Test func moreWordsThanAllowedMakeNoRecords() {
        let rows = [(id: Int64(1), commit: Int64(1), hint: Int?.none, page: "p", fields: [Array("one two three".utf8), nil, nil, nil, nil])]
        #expect(Self.built(rows, maxWords: 2) == nil)
        #expect(Self.built(rows, maxWords: 3) != nil)
    }

    @Test func varintsRoundTripAndBadBytesEndThem() {
        let values: [UInt64] = [0, 1, 127, 128, 16_383, 16_384, UInt64(UInt32.max), UInt64.max - 1, UInt64.max]
        var bytes: [UInt8] = []
        for value in values { Varint.append(value, to: &bytes) }
        bytes.withUnsafeBufferPointer { bytes in
            var reader = Varint.Reader(bytes)
            for value in values { #expect(reader.next() == value) }
            #expect(reader.isAtEnd && reader.next() == nil)
        }
        for bad: [UInt8] in [[0x80], [0xFF, 0xFF], Array(repeating: 0xFF, count: 9) + [0x02], Array(repeating: 0x80, count: 11) + [0]] {
            bad.withUnsafeBufferPointer { bad in
                var reader = Varint.Reader(bad)
                #expect(reader.next() == nil, "\(Array(bad))")
            }
        }
    }
}
