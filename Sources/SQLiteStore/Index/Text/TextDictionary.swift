import CZstd
import GRDB
import GRDBSQLite
import Logging
import Synchronization

/// A Zstandard dictionary of `text_dictionary`, ready to pack and unpack with. Its bytes never change once written
/// (a row packed with it names it by id), so one copy serves every connection of the process; Zstandard's prepared
/// dictionaries are read-only and may be used by several threads at once.
final class TextDictionary: @unchecked Sendable {
    let id: Int64
    /// For packing and for unpacking, made once.
    let packing: OpaquePointer
    let unpacking: OpaquePointer

    init(id: Int64, bytes: UnsafeRawBufferPointer) throws(DamagedPackedText) {
        self.id = id
        guard let packing = ZSTD_createCDict(bytes.baseAddress, bytes.count, PackedText.level) else {
            throw .dictionary(id, "cannot be read by Zstandard")
        }
        guard let unpacking = ZSTD_createDDict(bytes.baseAddress, bytes.count) else {
            ZSTD_freeCDict(packing)
            throw .dictionary(id, "cannot be read by Zstandard")
        }
        self.packing = packing
        self.unpacking = unpacking
    }

    deinit {
        ZSTD_freeCDict(packing)
        ZSTD_freeDDict(unpacking)
    }
}

/// A packed value, or the dictionary it names, that cannot be read back: the file is damaged, or was changed by
/// something else than the scheduler. A statement reads the value as NULL, and a write stores descriptions as they are
/// (``TextDictionaries/noteDamage(_:)``).
struct DamagedPackedText: Error, CustomStringConvertible {
    var description: String

    /// A value that is not what ``PackedText`` writes.
    static func value(_ problem: String) -> DamagedPackedText {
        DamagedPackedText(description: "an item's packed description \(problem): it reads as none; the file is damaged: restore it from a backup, or reindex the item")
    }

    /// A dictionary that cannot be used.
    static func dictionary(_ id: Int64, _ problem: String) -> DamagedPackedText {
        DamagedPackedText(description: """
            the text dictionary \(id) of the index \(problem): the descriptions packed with it read as none, and descriptions are written \
            as they are; the file is damaged: restore it from a backup
            """)
    }
}

/// The dictionaries of one database this process has read, by id (an id names one dictionary: ``TextPacking``). A
/// row names its dictionary, which was written in the same transaction as the row or before it, so a connection
/// reading the row can read the dictionary too (``dictionary(_:connection:)``).
final class TextDictionaries: Sendable {
    private let loaded = Mutex<[Int64: TextDictionary]>([:])
    private let logger: Logger
    private let damagedValues = Atomic<Int>(0)

    init(logger: Logger) {
        self.logger = logger
    }

    /// Dictionary `id`, read on `connection` (inside the statement that needs it) the first time.
    func dictionary(_ id: Int64, connection: OpaquePointer) throws -> TextDictionary {
        if let dictionary = loaded.withLock({ $0[id] }) { return dictionary }
        let dictionary = try Self.read(id, connection: connection)
        return loaded.withLock { loaded in
            if let known = loaded[id] { return known }
            loaded[id] = dictionary
            return dictionary
        }
    }

    /// Keeps `dictionary`, just trained by this process.
    func keep(_ dictionary: TextDictionary) {
        loaded.withLock { $0[dictionary.id] = dictionary }
    }

    /// Says the first damaged value read (at warning level), and counts them all.
    func noteDamage(_ damage: DamagedPackedText) {
        if damagedValues.add(1, ordering: .relaxed).newValue == 1 { logger.warning("\(damage)") }
    }

    /// Damaged values read since the index was opened: what tests check.
    var damagedValuesRead: Int { damagedValues.load(ordering: .relaxed) }

    private static func read(_ id: Int64, connection: OpaquePointer) throws -> TextDictionary {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "SELECT bytes FROM text_dictionary WHERE id = ?", -1, &statement, nil) == SQLITE_OK else {
            sqlite3_finalize(statement)
            throw DatabaseError(resultCode: ResultCode(rawValue: sqlite3_errcode(connection)), message: String(cString: sqlite3_errmsg(connection)))
        }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, id)
        switch sqlite3_step(statement) {
        case SQLITE_ROW:
            let bytes = UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, 0), count: Int(sqlite3_column_bytes(statement, 0)))
            return try TextDictionary(id: id, bytes: bytes)
        case SQLITE_DONE:
            throw DamagedPackedText.dictionary(id, "is missing")
        case let code:
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
    }
}
