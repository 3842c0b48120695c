import Foundation
import Indexing

/// A build of the search postings in bounded memory (``SearchPostings/build(_:isCancelled:)``): once the rows read
/// have grown the process by more than a segment may take (``Plan/bytes``), the members of every word and prefix, and
/// the candidate records, of the rows read so far are written to a scratch file beside the database and let go; only
/// the words stay (their numbers, and the records' vocabulary). When every row is read, the segments are merged, as
/// a stream, into one file of the saved postings' form, which is then read in place (``SavedPostingsFile/load``):
/// the postings a build in memory makes, bitmap for bitmap and record for record (the rows' ids ascend from one
/// segment to the next, so each word's members are its segments' one after the other).
///
/// The scratch files are the temporaries of the saved file's writer (``SavedFileWriter/finishScratch()``): removed
/// when the build ends, however it ends, and after a crash by the next start's ``SavedFileWriter/removeLeftovers(of:)``.
/// At ten million items a build in memory took 5.4 GB; this takes the words and one segment (BENCHMARKS.md).
final class PostingsSegments {
    /// Where a build writes its segments, and how much a segment may grow the process by.
    struct Plan: Sendable {
        /// The saved postings' file: the segments and their merge are its temporary files.
        var path: String
        var bytes: Int
    }

    /// One segment's scratch file, read by the merge in step with the others: each section holds a count, then that
    /// many entries in number order.
    final class Segment {
        /// Keeps the scratch file until the merge is done, and removes it when let go.
        private let writer: SavedFileWriter
        private var reader: SavedFileReader

        fileprivate init(writer: SavedFileWriter, path: String) throws {
            self.writer = writer
            guard let reader = try SavedFileReader(path: path) else { throw SavedFileReader.Unusable(reason: "its scratch file \(path) is gone") }
            self.reader = reader
        }

        /// The count of the words, or prefixes, that follow.
        func count() throws -> Int { Int(try reader.read(UInt32.self)) }

        /// The next word's, or prefix's, members.
        func members() throws -> PostingBitmap { try PostingBitmap(reading: &reader) }

        /// The segment's candidate records (``CandidateRecords/Builder/spill(to:)``), in place.
        func recordRun() throws -> CandidateRecords.Run {
            let (rows, bytes) = (Int(try reader.read(UInt64.self)), Int(try reader.read(UInt64.self)))
            try reader.align(to: 8)
            return CandidateRecords.Run(
                ids: try reader.inPlace(Int64.self, count: rows), starts: try reader.inPlace(UInt64.self, count: rows + 1),
                bytes: try reader.inPlace(UInt8.self, count: bytes)
            )
        }

        /// Throws unless every byte was read, and the file's checksum matches.
        func verify() throws { try reader.verifyChecksum() }
    }

    let plan: Plan
    private let isCancelled: @Sendable () -> Bool
    private var segments: [Segment] = []

    init(plan: Plan, isCancelled: @escaping @Sendable () -> Bool) {
        self.plan = plan
        self.isCancelled = isCancelled
    }

    /// How many segments were written.
    var count: Int { segments.count }

    /// Writes the members `held` holds and the records `records` holds as the next segment, and lets them go.
    func spill(_ held: inout SearchPostings.Held, records: inout CandidateRecords.Builder) throws {
        try writing {
            let writer = try SavedFileWriter(replacing: plan.path, isCancelled: isCancelled)
            try held.spillSegment(to: writer, records: &records)
            segments.append(try Segment(writer: writer, path: try writer.finishScratch()))
        }
    }

    /// Merges the segments, then what `held` and `records` hold since the last, into a scratch file of the saved
    /// postings' form keeping `fields`, and lets the segments go. The merged file lasts as long as what this returns.
    func merge(_ held: SearchPostings.Held, records: CandidateRecords.Builder, fields: SearchPostingsFields) throws -> Merged {
        try writing {
            let writer = try SavedFileWriter(replacing: plan.path, isCancelled: isCancelled)
            let token = SavedPostingsFile.newToken()
            try SavedPostingsFile.writeHeader(to: writer, fields: fields, token: token)
            try held.write(to: writer, after: segments, hasRecords: !records.gaveUp) { file in try records.write(after: segments, to: file) }
            for segment in segments { try segment.verify() }
            let path = try writer.finishScratch()
            segments = []
            return Merged(writer: writer, file: SavedPostingsFile(path: path), token: token, fields: fields)
        }
    }

    /// The merged file, removed when this is let go (a mapping of it outlives the removal).
    struct Merged {
        fileprivate let writer: SavedFileWriter
        let file: SavedPostingsFile
        let token: String
        let fields: SearchPostingsFields

        /// The postings it holds, read in place, at commit `commitNumber`.
        func load(at commitNumber: Int64) throws -> SearchPostings.Held {
            guard let held = try file.load(token: token, fields: fields, lastCommit: commitNumber, maxWords: .max) else {
                throw SavedFileReader.Unusable(reason: "the merged file \(file.path) is gone")
            }
            return held
        }
    }

    /// Runs `body`, turning a scratch file that cannot be written or read back into a drop of the postings
    /// (``SearchPostings/Dropped/cannotWriteSegments(_:)``), and a write given up into `CancellationError`.
    private func writing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SavedFileWriter.Failure {
            if isCancelled() { throw CancellationError() }
            throw SearchPostings.Dropped.cannotWriteSegments(error.description)
        } catch let error as SavedFileReader.Unusable {
            throw SearchPostings.Dropped.cannotWriteSegments("a segment written beside \(plan.path) reads back wrong: \(error)")
        }
    }
}

extension [PostingsSegments.Segment] {
    /// The members of entry `number` (a word or a prefix) in each segment that holds it, in order: `counts` says how
    /// many each holds (entries numbered later than a segment were first met after it).
    func members(of number: Int, counts: [Int]) throws -> [PostingBitmap] {
        try zip(self, counts).filter { number < $0.1 }.map { try $0.0.members() }
    }
}
