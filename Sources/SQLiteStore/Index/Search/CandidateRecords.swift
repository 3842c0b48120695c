import Indexing

/// What ranking reads of each row of the index, as one read saw them: its fields' words as numbers in a vocabulary of
/// its own (``CandidateRanking/NumberedFields``), its ranking hint, its page, and the commit that wrote it. A scan
/// takes a member's candidate from here instead of reading its row's text from SQLite, folding it and keeping it in
/// memory (``CandidateRowCache``): a record takes a sixth of a cached row, and every row has one.
///
/// Records are made in one read of every row (with the postings' build, and again when the rows written since
/// outnumber them: ``SearchPostings/recordsAreDue``) and never changed. Each one holds the version of its row that the
/// read saw: whether that row still exists, may be returned and is still that version (its `commitNumber`) is asked
/// of SQLite, with the search's filter, for the ids alone; a row written since is read from SQLite as before.
///
/// Saved with the postings and read in place from the mapped file, like their members. Every read of a record is
/// bounded by its own bytes and the vocabulary's size, so that no file can make a search read outside it.
final class CandidateRecords: @unchecked Sendable {
    /// The ids recorded, ascending.
    private let ids: UnsafeBufferPointer<Int64>
    /// Where each id's record starts in ``bytes``, and where the last one ends.
    private let starts: UnsafeBufferPointer<UInt64>
    /// Each record: 0 without a ranking hint, else 1 and the hint zigzagged (``Varint``); the commit that wrote the row;
    /// its page's length and UTF-8; then its fields (``CandidateRanking/NumberedFields``).
    private let bytes: UnsafeBufferPointer<UInt8>
    private let vocabulary: WordList
    /// What the pointers point into: a mapped file, or the buffers of a build.
    private let owner: any AnyObject & Sendable
    /// The saved file the records are read in place from, when they are (``MappedFile``).
    var mappedFile: MappedFile? { owner as? MappedFile }
    /// What searches learned of the recorded rows at the latest commit.
    let facts: RecordFacts

    private init(
        ids: UnsafeBufferPointer<Int64>, starts: UnsafeBufferPointer<UInt64>, bytes: UnsafeBufferPointer<UInt8>, vocabulary: WordList,
        owner: any AnyObject & Sendable
    ) {
        (self.ids, self.starts, self.bytes, self.vocabulary, self.owner) = (ids, starts, bytes, vocabulary, owner)
        facts = RecordFacts(count: ids.count)
    }

    /// How many rows are recorded.
    var count: Int { ids.count }

    /// The bytes the records and their vocabulary take.
    var byteCount: Int { ids.count * 16 + bytes.count + vocabulary.byteCount }

    /// The commit that wrote the row of record `index`, as the record holds it.
    func commitNumber(at index: Int) -> Int64? { Record(self, at: index)?.commitNumber }

    /// The candidate of record `index`.
    func candidate(at index: Int) -> CandidateRanking.Candidate? {
        guard let record = Record(self, at: index) else { return nil }
        return CandidateRanking.Candidate(
            id: ids[index], rankingHint: record.rankingHint,
            fields: CandidateRanking.NumberedFields(record.fields, page: record.page, vocabulary: vocabulary, keptBy: owner)
        )
    }

    /// The number of row `id`'s record, `nil` when it has none.
    func index(of id: Int64) -> Int? {
        var low = 0, high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }

    /// One record's parts.
    private struct Record {
        var rankingHint: Int?
        var commitNumber: Int64
        var page: UnsafeBufferPointer<UInt8>
        var fields: UnsafeBufferPointer<UInt8>

        /// Record `index` of `records`; `nil` when its bytes do not hold one.
        init?(_ records: CandidateRecords, at index: Int) {
            let start = Int(clamping: records.starts[index]), end = Int(clamping: records.starts[index + 1])
            guard start <= end, end <= records.bytes.count else { return nil }
            let bytes = UnsafeBufferPointer(rebasing: records.bytes[start..<end])
            var reader = Varint.Reader(bytes)
            guard let hasHint = reader.next(), hasHint <= 1 else { return nil }
            if hasHint == 1 {
                guard let zigzag = reader.next() else { return nil }
                rankingHint = Int(truncatingIfNeeded: zigzag >> 1) ^ -Int(truncatingIfNeeded: zigzag & 1)
            }
            guard let commit = reader.next(), commit <= UInt64(Int64.max) else { return nil }
            commitNumber = Int64(commit)
            guard let length = reader.next(), let page = reader.take(Int(clamping: length)) else { return nil }
            self.page = page
            fields = reader.rest
        }
    }
}

extension CandidateRecords {
    /// Records rows one after another, in ascending id order, as a build reads them.
    struct Builder {
        private var ids: [Int64] = []
        private var starts: [UInt64] = [0]
        private var bytes: [UInt8] = []
        private var vocabulary: VocabularyBuilder
        private var record: [UInt8] = []
        /// Whether the rows held more than the words allowed: no records are made, and searches read rows.
        private(set) var gaveUp = false

        /// A builder of records whose vocabulary holds at most `maxWords` words.
        init(maxWords: Int) {
            vocabulary = VocabularyBuilder(maxWords: maxWords)
        }

        /// Records row `id`, as commit `commitNumber` wrote it, after every row recorded so far, with the UTF-8 that
        /// `utf8` gives for each field (`nil`: absent), valid for the call.
        mutating func add(
            id: Int64, commitNumber: Int64, rankingHint: Int?, page: String, utf8: (SearchColumn) -> UnsafeBufferPointer<UInt8>?
        ) {
            guard !gaveUp else { return }
            record.removeAll(keepingCapacity: true)
            if let hint = rankingHint {
                record.append(1)
                Varint.append(UInt64(bitPattern: Int64(hint << 1 ^ hint >> (Int.bitWidth - 1))), to: &record)
            } else {
                record.append(0)
            }
            Varint.append(UInt64(max(commitNumber, 0)), to: &record)
            Varint.append(UInt64(page.utf8.count), to: &record)
            record += page.utf8
            guard CandidateRanking.NumberedFields.append(utf8: utf8, numbering: { vocabulary.number(of: $0) }, to: &record) else {
                gaveUp = true
                self = Builder(gaveUp: ())
                return
            }
            bytes += record
            ids.append(id)
            starts.append(UInt64(bytes.count))
        }

        /// Writes the rows recorded since the last ``dropRun()``, a ``Run``: one segment of a build in segments
        /// (``PostingsSegments``), which ``write(after:to:)`` joins.
        func writeRun(to file: SavedFileWriter) throws {
            try file.write(UInt64(ids.count))
            try file.write(UInt64(bytes.count))
            try file.align(to: 8)
            try ids.withUnsafeBytes { try file.write(bytes: $0) }
            try starts.withUnsafeBytes { try file.write(bytes: $0) }
            try bytes.withUnsafeBytes { try file.write(bytes: $0) }
        }

        /// Lets the rows recorded go, keeping the vocabulary: once their segment is written.
        mutating func dropRun() {
            (ids, starts, bytes) = ([], [0], [])
        }

        /// Writes the records of `segments` (``Run``s each spilled), then those recorded since, as one set of records
        /// (``CandidateRecords/write(_:vocabulary:to:)``); nothing when given up.
        func write(after segments: [PostingsSegments.Segment], to file: SavedFileWriter) throws {
            let spilled = try segments.map { try $0.recordRun() }
            guard !gaveUp else { return }
            try withRun { run in
                try vocabulary.withWordList { vocabulary in try CandidateRecords.write(spilled + [run], vocabulary: vocabulary, to: file) }
            }
        }

        /// Calls `body` with the rows recorded since the last ``dropRun()``, as a ``Run`` valid during the call.
        private func withRun<R>(_ body: (Run) throws -> R) rethrows -> R {
            try ids.withUnsafeBufferPointer { ids in
                try starts.withUnsafeBufferPointer { starts in
                    try bytes.withUnsafeBufferPointer { bytes in try body(Run(ids: ids, starts: starts, bytes: bytes)) }
                }
            }
        }

        private init(gaveUp: Void) {
            vocabulary = VocabularyBuilder(maxWords: 0)
            self.gaveUp = true
        }

        /// The bytes ``finish()`` copies the records into, beside the builder's own until it is let go.
        var byteCount: Int {
            ids.count * 8 + starts.count * 8 + bytes.count + vocabulary.starts.count * 4 + vocabulary.bytes.count
        }

        /// The records, `nil` when given up.
        func finish() -> CandidateRecords? {
            guard !gaveUp else { return nil }
            let owner = OwnedBuffers()
            let vocabulary = WordList(starts: owner.copy(self.vocabulary.starts), bytes: owner.copy(self.vocabulary.bytes))!
            return CandidateRecords(ids: owner.copy(ids), starts: owner.copy(starts), bytes: owner.copy(bytes), vocabulary: vocabulary, owner: owner)
        }
    }

    /// The words records number, each numbered when first met.
    private struct VocabularyBuilder {
        var starts: [UInt32] = [0]
        var bytes: [UInt8] = []
        /// Word numbers by the hash of their bytes; a word whose hash another took first is kept in ``collided``.
        private var byHash: [Int: UInt32] = [:]
        private var collided: [[UInt8]: UInt32] = [:]
        let maxWords: Int

        init(maxWords: Int) {
            self.maxWords = maxWords
        }

        /// The number of `word`, given it when it is new; `nil` when it is new and no more words are kept.
        mutating func number(of word: UnsafeBufferPointer<UInt8>) -> UInt64? {
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(word))
            let hash = hasher.finalize()
            if let number = byHash[hash] {
                if self.word(number).elementsEqual(word) { return UInt64(number) }
                if let number = collided[Array(word)] { return UInt64(number) }
            }
            guard starts.count <= maxWords, bytes.count + word.count <= Int(UInt32.max) else { return nil }
            let number = UInt32(starts.count - 1)
            bytes += word
            starts.append(UInt32(bytes.count))
            if byHash[hash] == nil { byHash[hash] = number } else { collided[Array(word)] = number }
            return UInt64(number)
        }

        /// Calls `body` with the words numbered so far, valid during the call.
        func withWordList<R>(_ body: (WordList) throws -> R) rethrows -> R {
            try starts.withUnsafeBufferPointer { starts in
                try bytes.withUnsafeBufferPointer { bytes in try body(WordList(starts: starts, bytes: bytes)!) }
            }
        }

        private func word(_ number: UInt32) -> ArraySlice<UInt8> {
            bytes[Int(starts[Int(number)])..<Int(starts[Int(number) + 1])]
        }
    }

    /// Buffers of the process's memory that records made by a build point into, freed with the last holder.
    private final class OwnedBuffers: @unchecked Sendable {
        private var buffers: [UnsafeMutableRawBufferPointer] = []

        /// A copy of `array`'s elements, kept as long as this is.
        func copy<Element: FixedWidthInteger>(_ array: [Element]) -> UnsafeBufferPointer<Element> {
            let copy = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(array.count, 1))
            _ = copy.initialize(fromContentsOf: array)
            buffers.append(UnsafeMutableRawBufferPointer(copy))
            return UnsafeBufferPointer(rebasing: copy[..<array.count])
        }

        deinit {
            for buffer in buffers { buffer.deallocate() }
        }
    }
}

extension CandidateRecords {
    /// Writes the counts, then the ids, where each record starts, where each word starts, the records and the words:
    /// each array aligned, to be read in place (``init(reading:)``).
    func write(to file: SavedFileWriter) throws {
        try Self.write([Run(ids: ids, starts: starts, bytes: bytes)], vocabulary: vocabulary, to: file)
    }

    /// Records of consecutive rows: their ids, where each starts in their bytes (one more than the ids, the first 0),
    /// and their bytes.
    struct Run {
        var ids: UnsafeBufferPointer<Int64>
        var starts: UnsafeBufferPointer<UInt64>
        var bytes: UnsafeBufferPointer<UInt8>
    }

    /// Writes `runs`, each after the rows of the one before, as the records of ``write(to:)``, numbering words in
    /// `vocabulary`: how a build in segments (``PostingsSegments``) joins those of its segments.
    static func write(_ runs: [Run], vocabulary: WordList, to file: SavedFileWriter) throws {
        let (rows, recordBytes) = runs.reduce((0, 0)) { ($0.0 + $1.ids.count, $0.1 + $1.bytes.count) }
        for count in [rows, recordBytes, vocabulary.count, vocabulary.bytes.count] { try file.write(UInt64(count)) }
        try file.align(to: 8)
        for run in runs { try file.write(bytes: UnsafeRawBufferPointer(run.ids)) }
        var offset: UInt64 = 0
        for run in runs {
            try write(run.starts.dropLast(), adding: offset, to: file)
            offset += UInt64(run.bytes.count)
        }
        try file.write(offset)
        try file.write(bytes: UnsafeRawBufferPointer(vocabulary.starts))
        for run in runs { try file.write(bytes: UnsafeRawBufferPointer(run.bytes)) }
        try file.write(bytes: UnsafeRawBufferPointer(vocabulary.bytes))
    }

    /// Writes each of `starts` plus `offset`, a block at a time.
    private static func write(_ starts: Slice<UnsafeBufferPointer<UInt64>>, adding offset: UInt64, to file: SavedFileWriter) throws {
        guard offset != 0 else { return try file.write(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: starts))) }
        for start in stride(from: starts.startIndex, to: starts.endIndex, by: 65_536) {
            let block = starts[start..<min(start + 65_536, starts.endIndex)].map { $0 + offset }
            try block.withUnsafeBytes { try file.write(bytes: $0) }
        }
    }

    /// Reads what ``write(to:)`` wrote, in place, and checks the records' order and bounds: ids ascending, each record
    /// within the bytes. A record's own bytes are not read here (at ten million rows that read took seconds of a
    /// restart): the file's checksum catches damage, and every read of a record is bounded by its bytes and the
    /// vocabulary, so a record that does not parse is no record (its row is read from SQLite) and a crafted one can at
    /// worst rank its row wrongly.
    convenience init(reading file: inout SavedFileReader) throws(SavedFileReader.Unusable) {
        let counts = try (0..<4).map { _ throws(SavedFileReader.Unusable) in try file.read(UInt64.self) }
        guard counts.allSatisfy({ $0 < UInt64(Int32.max) * 1024 }) else { throw SavedFileReader.Unusable(reason: "its record counts are out of range") }
        let (rows, recordBytes, words, wordBytes) = (Int(counts[0]), Int(counts[1]), Int(counts[2]), Int(counts[3]))
        try file.align(to: 8)
        let ids = try file.inPlace(Int64.self, count: rows)
        let starts = try file.inPlace(UInt64.self, count: rows + 1)
        let wordStarts = try file.inPlace(UInt32.self, count: words + 1)
        let bytes = try file.inPlace(UInt8.self, count: recordBytes)
        guard let vocabulary = WordList(starts: wordStarts, bytes: try file.inPlace(UInt8.self, count: wordBytes)) else {
            throw SavedFileReader.Unusable(reason: "its records' words are out of order or out of bounds")
        }
        self.init(ids: ids, starts: starts, bytes: bytes, vocabulary: vocabulary, owner: file.mappedFile)
        try check()
    }

    /// Throws unless the ids ascend and the records follow one another through their bytes.
    private func check() throws(SavedFileReader.Unusable) {
        guard starts.first == 0, starts.last == UInt64(bytes.count) else { throw SavedFileReader.Unusable(reason: "its records do not fill their bytes") }
        for index in ids.indices where index > 0 && ids[index - 1] >= ids[index] || starts[index] > starts[index + 1] {
            throw SavedFileReader.Unusable(reason: "its record \(index) is out of order")
        }
    }
}
