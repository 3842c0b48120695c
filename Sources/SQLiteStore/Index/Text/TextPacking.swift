import CZstd
import Foundation
import GRDB
import HostSupport
import Indexing
import Logging
import Synchronization

/// Packs the descriptions an index writes (``PackedText``), about two and a half to three times smaller than as
/// written (BENCHMARKS.md): the largest part of a row, read only for a page's hits and a build of the search postings.
///
/// The dictionary is trained once, by the first write that finds enough distinct descriptions to learn from
/// (``minSamples``, from what it writes and what is stored), in that write's transaction; from then on every
/// description written is packed with it. Descriptions stored before stay as they are until written again, as do
/// short ones (``PackedText/minPackedBytes``) and any that packing would not shrink. A database written by several
/// processes packs with the dictionary whichever trained it, since each reads the newest at every write.
final class TextPacking: Sendable {
    let dictionaries: TextDictionaries
    /// What dates a dictionary's training (`trainedAt`: the newest serves).
    private let clock: any WallClock
    /// What this process knows of the descriptions stored plain that a dictionary would pack: how many its last look
    /// for enough to train on found, and how many it wrote since (`nil`: it has not looked yet). It looks again once
    /// they may be enough, and ``writtenBetweenLooks`` were written since: an index holding few long descriptions is
    /// not read whole at every write.
    private let plain = Mutex<(found: Int, writtenSince: Int)?>(nil)

    /// Descriptions a dictionary is trained on: at least this many distinct ones (fewer teach it too little to be worth
    /// a header per row), at most ``maxSamples``, each cut to ``maxSampleBytes``.
    static let minSamples = 1_000
    static let maxSamples = 10_000
    static let maxSampleBytes = 4_096
    /// A dictionary's size: at the bench's descriptions, 32 KB packs them 2.6 times, 8 KB 2.4 times.
    static let dictionaryBytes = 32 * 1024
    /// Descriptions worth packing written plain between two looks for enough to train on.
    static let writtenBetweenLooks = 100

    init(clock: any WallClock, logger: Logger) {
        self.clock = clock
        dictionaries = TextDictionaries(logger: logger)
    }

    /// The packer of a transaction writing `descriptions` (some may turn out unchanged), with the newest dictionary,
    /// trained first from them and the stored plain descriptions when there is none and there are enough of both.
    /// Call ``noteWritten(by:)`` with it once they are written.
    func packer(_ db: Database, writing descriptions: [String?]) throws -> TextPacker {
        guard let connection = db.sqliteConnection else { return .plain }
        if let newest = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM text_dictionary ORDER BY trainedAt DESC, id LIMIT 1")) {
            do {
                return try TextPacker(dictionary: dictionaries.dictionary(newest, connection: connection))
            } catch let damage as DamagedPackedText {
                // Written as they are rather than not at all.
                dictionaries.noteDamage(damage)
                return .plain
            }
        }
        let writing = descriptions.count { $0.map { PackedText.packedLengths.contains($0.utf8.count) } ?? false }
        let mayLook = plain.withLock { known in
            known.map { $0.found + $0.writtenSince + writing >= Self.minSamples && $0.writtenSince + writing >= Self.writtenBetweenLooks } ?? true
        }
        guard mayLook else { return .plain }
        let (samples, stored) = try Self.samples(db, writing: descriptions)
        plain.withLock { $0 = (stored, 0) }
        guard samples.count >= Self.minSamples, let bytes = Self.dictionary(from: samples) else { return .plain }
        return try TextPacker(dictionary: store(bytes, trainedOn: samples.count, db))
    }

    /// Counts what `packer` stored plain that a dictionary would have packed.
    func noteWritten(by packer: TextPacker) {
        guard packer.plainWorthPacking > 0 else { return }
        plain.withLock { known in known = (known?.found ?? 0, (known?.writtenSince ?? 0) + packer.plainWorthPacking) }
    }

    /// Distinct descriptions worth packing, of those a write sends and those stored plain, up to ``maxSamples``; and
    /// how many of the latter the former did not hold.
    private static func samples(_ db: Database, writing descriptions: [String?]) throws -> (samples: [[UInt8]], stored: Int) {
        var samples = Set<[UInt8]>()
        for case let description? in descriptions where PackedText.packedLengths.contains(description.utf8.count) {
            guard samples.count < maxSamples else { break }
            samples.insert(Array(description.utf8.prefix(maxSampleBytes)))
        }
        let rows = try Row.fetchCursor(
            db, sql: """
                SELECT substr(CAST(contentDescription AS BLOB), 1, ?) FROM item WHERE \(PackedText.storedPlainWorthPacking) LIMIT ?
                """,
            arguments: [maxSampleBytes, maxSamples]
        )
        var stored = 0
        while samples.count < maxSamples, let row = try rows.next() {
            if samples.insert(Array(row[0] as Data)).inserted { stored += 1 }
        }
        // In one order whatever the set's: the same rows train the same dictionary.
        return (samples.sorted { $0.lexicographicallyPrecedes($1) }, stored)
    }

    /// Stores dictionary `bytes` in the caller's transaction. Its id is taken from its bytes, so that an id names one
    /// dictionary whichever process trained it, a transaction rolled back included (this process may hold it already).
    private func store(_ bytes: [UInt8], trainedOn samples: Int, _ db: Database) throws -> TextDictionary {
        let id = bytes.withUnsafeBytes { Int64(XXHash64.hash($0) >> 36) + 1 }
        try db.execute(
            sql: "INSERT INTO text_dictionary (id, bytes, samples, trainedAt) VALUES (?, ?, ?, ?)",
            arguments: [id, Data(bytes), samples, clock.now().timeIntervalSince1970]
        )
        let dictionary = try bytes.withUnsafeBytes { try TextDictionary(id: id, bytes: $0) }
        dictionaries.keep(dictionary)
        return dictionary
    }

    /// A dictionary of ``dictionaryBytes`` learnt from `samples`, or `nil` when Zstandard can learn none from them.
    private static func dictionary(from samples: [[UInt8]]) -> [UInt8]? {
        let joined = samples.flatMap { $0 }
        let sizes = samples.map(\.count)
        var dictionary = [UInt8](repeating: 0, count: dictionaryBytes)
        let size = dictionary.withUnsafeMutableBytes { dictionary in
            ZDICT_trainFromBuffer(dictionary.baseAddress, dictionary.count, joined, sizes, UInt32(sizes.count))
        }
        guard ZDICT_isError(size) == 0 else { return nil }
        return Array(dictionary.prefix(size))
    }
}

/// Packs the descriptions of one transaction (``PackedText``), with Zstandard's state reused from one to the next.
final class TextPacker {
    /// A packer that stores text as it is: no dictionary yet.
    static var plain: TextPacker { TextPacker() }

    private let dictionary: TextDictionary?
    private let context: OpaquePointer?

    private init() {
        dictionary = nil
        context = nil
    }

    init(dictionary: TextDictionary) throws {
        guard let context = ZSTD_createCCtx() else { throw DatabaseError(message: "cannot allocate Zstandard's state") }
        ZSTD_CCtx_refCDict(context, dictionary.packing)
        // What the header of a packed value says once for all (``PackedText``) is left out of each frame.
        ZSTD_CCtx_setParameter(context, ZSTD_c_experimentalParam2, Int32(ZSTD_f_zstd1_magicless.rawValue))
        ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, 0)
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 0)
        ZSTD_CCtx_setParameter(context, ZSTD_c_dictIDFlag, 0)
        self.dictionary = dictionary
        self.context = context
    }

    deinit { ZSTD_freeCCtx(context) }

    /// Whether it has a dictionary to pack with.
    var packs: Bool { dictionary != nil }

    /// Texts worth packing this packer stored as they are, having no dictionary.
    private(set) var plainWorthPacking = 0

    /// What to store for `text`: packed when there is a dictionary, the text is long enough (and not longer than a
    /// packed value may hold) and packing shrinks it.
    func pack(_ text: String?) -> DatabaseValue {
        guard let text, PackedText.packedLengths.contains(text.utf8.count) else { return text.databaseValue }
        guard let dictionary, let context else {
            plainWorthPacking += 1
            return text.databaseValue
        }
        var utf8 = text
        return utf8.withUTF8 { utf8 in
            let header = PackedText.header(dictionary: dictionary.id, length: utf8.count)
            var packed = Data(count: header.count + ZSTD_compressBound(utf8.count))
            let written = packed.withUnsafeMutableBytes { packed in
                packed.copyBytes(from: header)
                return ZSTD_compress2(context, packed.baseAddress! + header.count, packed.count - header.count, utf8.baseAddress, utf8.count)
            }
            guard ZSTD_isError(written) == 0, header.count + written < utf8.count else {
                ZSTD_CCtx_reset(context, ZSTD_reset_session_only)
                return text.databaseValue
            }
            packed.count = header.count + written
            return packed.databaseValue
        }
    }
}
