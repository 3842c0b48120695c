import CZstd
import Foundation
import GRDB
import Synchronization

/// Packs the descriptions an index writes (``PackedText``), about two and a half to three times smaller than as
/// written (BENCHMARKS.md): the largest part of a row, read only for a page's hits and a build of the search postings.
///
/// The dictionary is trained once, by the first write that finds enough descriptions to learn from
/// (``minSamples``, from what it writes and what is stored), in that write's transaction; from then on every
/// description written is packed with it. Descriptions stored before stay as they are until written again, as do
/// short ones (``PackedText/minPackedBytes``) and any that packing would not shrink. A database written by several
/// processes packs with the dictionary whichever trained it, since each reads the newest at every write.
final class TextPacking: Sendable {
    let dictionaries = TextDictionaries()
    /// How many descriptions this process knows to be stored plain, worth packing, since it last looked for enough to
    /// train on: `nil` until it has looked. It looks again only once as many more were written.
    private let plainSinceLook = Mutex<Int?>(nil)

    /// Descriptions a dictionary is trained on: at least this many (fewer teach it too little to be worth a header
    /// byte per row), at most ``maxSamples``, each cut to ``maxSampleBytes``.
    static let minSamples = 1_000
    static let maxSamples = 10_000
    static let maxSampleBytes = 4_096
    /// A dictionary's size: at the bench's descriptions, 32 KB packs them 2.6 times, 8 KB 2.4 times.
    static let dictionaryBytes = 32 * 1024

    /// The packer of a transaction writing `descriptions`, with the newest dictionary, trained first from them and the
    /// stored plain descriptions when there is none and there are enough of both.
    func packer(_ db: Database, writing descriptions: [String?]) throws -> TextPacker {
        guard let connection = db.sqliteConnection else { return .plain }
        if let newest = try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM text_dictionary")) {
            return try TextPacker(dictionary: dictionaries.dictionary(newest, connection: connection))
        }
        let worthPacking = descriptions.compactMap { $0 }.filter { $0.utf8.count >= PackedText.minPackedBytes }
        let shouldLook = plainSinceLook.withLock { known in
            guard let plain = known, plain + worthPacking.count < Self.minSamples else { return true }
            known = plain + worthPacking.count
            return false
        }
        guard shouldLook, let dictionary = try train(db, on: worthPacking) else { return .plain }
        return try TextPacker(dictionary: dictionary)
    }

    /// Trains a dictionary on `written` and the plain descriptions stored, and stores it in the caller's transaction;
    /// `nil` when there are too few to learn from (or Zstandard learnt nothing), remembered until as many more are
    /// written.
    private func train(_ db: Database, on written: [String]) throws -> TextDictionary? {
        var samples = written.prefix(Self.maxSamples).map { Array($0.utf8.prefix(Self.maxSampleBytes)) }
        if samples.count < Self.maxSamples {
            let stored = try Row.fetchCursor(
                db, sql: """
                    SELECT substr(CAST(contentDescription AS BLOB), 1, ?) FROM item
                    WHERE typeof(contentDescription) = 'text' AND length(CAST(contentDescription AS BLOB)) >= ? LIMIT ?
                    """,
                arguments: [Self.maxSampleBytes, PackedText.minPackedBytes, Self.maxSamples - samples.count]
            )
            while let row = try stored.next() { samples.append(Array(row[0] as Data)) }
        }
        guard samples.count >= Self.minSamples else {
            plainSinceLook.withLock { $0 = samples.count }
            return nil
        }
        guard let bytes = Self.dictionary(from: samples) else {
            // Tried again once as many more are written, not at every write.
            plainSinceLook.withLock { $0 = 0 }
            return nil
        }
        try db.execute(sql: "INSERT INTO text_dictionary (id, bytes, samples, trainedAt) VALUES ((SELECT coalesce(max(id), 0) + 1 FROM text_dictionary), ?, ?, ?)",
            arguments: [Data(bytes), samples.count, Date().timeIntervalSince1970])
        let dictionary = try bytes.withUnsafeBytes { try TextDictionary(id: db.lastInsertedRowID, bytes: $0) }
        dictionaries.keep(dictionary)
        db.afterNextTransaction(onCommit: { _ in }, onRollback: { _ in
            self.dictionaries.forget(dictionary.id)
            self.plainSinceLook.withLock { $0 = nil }
        })
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

    /// What to store for `text`: packed when there is a dictionary, the text is long enough and packing shrinks it.
    func pack(_ text: String?) -> DatabaseValue {
        guard let text, let dictionary, let context, text.utf8.count >= PackedText.minPackedBytes else { return text.databaseValue }
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
