import CZstd
import GRDBSQLite
import Synchronization

/// A Zstandard dictionary of `text_dictionary`, ready to pack and unpack with. Its bytes never change once written
/// (a row packed with it names it by id), so one copy serves every connection of the process; Zstandard's prepared
/// dictionaries are read-only and may be used by several threads at once.
final class TextDictionary: @unchecked Sendable {
    let id: Int64
    /// For packing and for unpacking, made once.
    let packing: OpaquePointer
    let unpacking: OpaquePointer

    init(id: Int64, bytes: UnsafeRawBufferPointer) throws(TextDictionaryError) {
        self.id = id
        guard let packing = ZSTD_createCDict(bytes.baseAddress, bytes.count, PackedText.level) else {
            throw TextDictionaryError(id: id, problem: "Zstandard cannot read it")
        }
        guard let unpacking = ZSTD_createDDict(bytes.baseAddress, bytes.count) else {
            ZSTD_freeCDict(packing)
            throw TextDictionaryError(id: id, problem: "Zstandard cannot read it")
        }
        self.packing = packing
        self.unpacking = unpacking
    }

    deinit {
        ZSTD_freeCDict(packing)
        ZSTD_freeDDict(unpacking)
    }
}

/// A dictionary that cannot be used: the database is damaged, or was changed by something else than the scheduler.
struct TextDictionaryError: Error, CustomStringConvertible {
    var id: Int64
    var problem: String
    var description: String {
        "the text dictionary \(id) of the index (table text_dictionary) \(problem): the file is damaged; restore it from a backup or reindex"
    }
}

/// The dictionaries of one database this process has read, by id. A row names its dictionary, which was written in
/// the same transaction as the row or before it, so a connection reading the row can read the dictionary too
/// (``dictionary(_:connection:)``). A dictionary trained by a transaction that rolls back is forgotten with it
/// (``forget(_:)``): its id may be given to another.
final class TextDictionaries: Sendable {
    private let loaded = Mutex<[Int64: TextDictionary]>([:])

    /// Dictionary `id`, read on `connection` (inside the statement that needs it) the first time.
    func dictionary(_ id: Int64, connection: OpaquePointer) throws(TextDictionaryError) -> TextDictionary {
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

    func forget(_ id: Int64) {
        _ = loaded.withLock { $0.removeValue(forKey: id) }
    }

    private static func read(_ id: Int64, connection: OpaquePointer) throws(TextDictionaryError) -> TextDictionary {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "SELECT bytes FROM text_dictionary WHERE id = ?", -1, &statement, nil) == SQLITE_OK else {
            sqlite3_finalize(statement)
            throw TextDictionaryError(id: id, problem: "cannot be read: \(String(cString: sqlite3_errmsg(connection)))")
        }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, id)
        guard sqlite3_step(statement) == SQLITE_ROW else { throw TextDictionaryError(id: id, problem: "is missing") }
        let bytes = UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, 0), count: Int(sqlite3_column_bytes(statement, 0)))
        return try TextDictionary(id: id, bytes: bytes)
    }
}
