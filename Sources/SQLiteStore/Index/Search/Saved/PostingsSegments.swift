import Foundation
import Indexing

/// A build of the search postings in bounded memory (``SearchPostings/build(_:isCancelled:)``): once the rows read
/// have grown the process by more than a segment may take (``Plan/bytes``), the members of every word and prefix, and
/// the candidate records, of the rows read so far are written to a scratch file beside the database and let go; only
/// the words stay (their numbers, and the records' vocabulary). When every row is read, the segments and the rows
/// read since the last are merged, as a stream, into one file of the saved postings' form (``merge(fields:stop:)``),
/// which is then read in place (``SavedPostingsFile/load``): the postings a build in memory makes, bitmap for bitmap
/// and record for record (the rows' ids ascend from one segment to the next, so each word's members are its
/// segments' one after the other).
///
/// The scratch files are the temporaries of the saved file's writer (``SavedFileWriter/finishScratch()``): removed
/// when the build lets them go, however it ends, and after a crash by the next build or start
/// (``SavedFileWriter/removeLeftovers(of:)``). At ten million items a build in memory took 5.4 GB; this takes the words
/// and one segment (BENCHMARKS.md).
///
/// `@unchecked Sendable`: owned by one thread at a time, the build's read that makes it, then the merge's.
final class PostingsSegments: @unchecked Sendable {
    /// Where a build writes its segments, and how much a segment may grow the process by.
    struct Plan: Sendable {
        /// The saved postings' file: the segments and their merge are its temporary files.
        var path: String
        /// 0: a segment at each look at the build's memory (every 4,096 rows).
        var bytes: Int
    }

    /// A scratch file could not be written or read back: the reason.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The build was told to stop (cancelled, or its postings retired) while writing.
    struct Stopped: Error {}

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

        /// The segment's candidate records (``CandidateRecords/Builder/writeRun(to:)``), in place.
        func recordRun() throws -> CandidateRecords.Run {
            let (rows, bytes) = (Int(clamping: try reader.read(UInt64.self)), Int(clamping: try reader.read(UInt64.self)))
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
    private var segments: [Segment] = []
    /// The rows read since the last segment, until merged.
    private var tail: (held: SearchPostings.Held, records: CandidateRecords.Builder)?
    /// Why the last spill failed: the build then goes on in memory.
    private(set) var spillFailure: Failure?

    /// Segments written to `plan`, removing those a crashed build left beside its file.
    init(plan: Plan) {
        self.plan = plan
        SavedFileWriter.removeLeftovers(of: plan.path)
    }

    /// How many segments were written.
    var count: Int { segments.count }

    /// Writes the members `held` holds and the records `records` holds as the next segment, then lets them go, unless
    /// a spill failed before (``spillFailure``): returns whether it did. A write that fails leaves them held and
    /// records why; `stop` says to give up (``Stopped``).
    func spill(_ held: inout SearchPostings.Held, records: inout CandidateRecords.Builder, stop: @escaping @Sendable () -> Bool) throws -> Bool {
        guard spillFailure == nil else { return false }
        do {
            try writing(stop: stop) {
                let writer = try SavedFileWriter(replacing: plan.path, isCancelled: stop)
                try held.writeSegment(to: writer, records: records)
                segments.append(try Segment(writer: writer, path: try writer.finishScratch()))
            }
        } catch let failure as Failure {
            spillFailure = failure
            return false
        }
        held.dropSegment(records: &records)
        return true
    }

    /// Keeps the rows read since the last segment, for the merge.
    func keep(tail held: SearchPostings.Held, records: CandidateRecords.Builder) {
        tail = (held, records)
    }

    /// Merges the segments, then the tail (``keep(tail:records:)``), into a scratch file of the saved postings' form
    /// keeping `fields`, and lets them all go. The merged file lasts as long as what this returns, which a save can put
    /// in place of the saved file (``Merged/putInPlace()``) instead of writing it again.
    func merge(fields: SearchPostingsFields, stop: @escaping @Sendable () -> Bool) throws -> Merged {
        guard let kept = tail else { throw Failure(description: "nothing to merge") }
        let (held, records) = kept
        return try writing(stop: stop) {
            let writer = try SavedFileWriter(replacing: plan.path, isCancelled: stop)
            let token = SavedPostingsFile.newToken()
            try SavedPostingsFile.writeHeader(to: writer, fields: fields, token: token)
            try held.write(to: writer, after: segments, hasRecords: !records.gaveUp) { file in try records.write(after: segments, to: file) }
            for segment in segments { try segment.verify() }
            let path = try writer.finishScratch()
            (segments, tail) = ([], nil)
            return Merged(writer: writer, file: SavedPostingsFile(path: path), token: token, fields: fields, commitNumber: held.commitNumber)
        }
    }

    /// The merged file, removed when this is let go (a mapping of it outlives the removal) unless put in place.
    ///
    /// `@unchecked Sendable`: owned by one thread at a time, the merge's, then the save's.
    struct Merged: @unchecked Sendable {
        fileprivate let writer: SavedFileWriter
        let file: SavedPostingsFile
        let token: String
        let fields: SearchPostingsFields
        let commitNumber: Int64

        /// The postings it holds, read in place.
        func load() throws -> SearchPostings.Held {
            do {
                guard let held = try file.load(token: token, fields: fields, lastCommit: commitNumber, maxWords: .max) else {
                    throw Failure(description: "the merged file \(file.path) is gone")
                }
                return held
            } catch let error as SavedFileReader.Unusable {
                throw Failure(description: "their merge in \(file.path) reads back wrong: \(error)")
            }
        }

        /// Flushes the file to disk and renames it over the saved postings' file (``Plan/path``).
        func putInPlace() throws {
            try writer.putInPlace()
        }
    }

    /// Runs `body`, which writes or reads scratch files: a write given up because `stop` says so throws ``Stopped``,
    /// any other failure of a scratch file ``Failure``.
    private func writing<T>(stop: () -> Bool, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SavedFileWriter.Failure {
            if stop() { throw Stopped() }
            throw Failure(description: error.description)
        } catch let error as SavedFileReader.Unusable {
            throw Failure(description: "a segment written beside \(plan.path) reads back wrong: \(error)")
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
