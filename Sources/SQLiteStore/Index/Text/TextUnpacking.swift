import CZstd
import GRDB
import GRDBSQLite

/// The `item_text(value)` SQL function of one connection: a packed description's text (``PackedText``), any other
/// value as it is. A value it cannot unpack (a damaged file) reads as NULL, said once (``TextDictionaries/noteDamage(_:)``):
/// the row can still be found, rewritten, deleted and swept. It never reads past a value, nor allocates more than a
/// header says, which is bounded (``PackedText/maxTextBytes``). An error reading a dictionary (an interrupted
/// statement) fails the statement.
///
/// Written against SQLite's C interface: GRDB's functions copy each argument into a Swift value first, which the
/// build of the search postings would pay for every row.
final class TextUnpacking {
    private let dictionaries: TextDictionaries
    /// Zstandard's state, reused by every call on the connection (a connection runs one statement at a time).
    private let context: OpaquePointer
    private var buffer: [UInt8] = []

    private init(dictionaries: TextDictionaries) throws {
        guard let context = ZSTD_createDCtx() else { throw DatabaseError(message: "cannot allocate Zstandard's state") }
        // Frames are written without their magic number (``TextPacking``).
        ZSTD_DCtx_setParameter(context, ZSTD_d_experimentalParam1, Int32(ZSTD_f_zstd1_magicless.rawValue))
        self.context = context
        self.dictionaries = dictionaries
    }

    deinit { ZSTD_freeDCtx(context) }

    /// Adds `item_text` to `db`, reading dictionaries through `dictionaries`.
    static func register(on db: Database, dictionaries: TextDictionaries) throws {
        let unpacking = Unmanaged.passRetained(try TextUnpacking(dictionaries: dictionaries)).toOpaque()
        let result = sqlite3_create_function_v2(
            db.sqliteConnection, "item_text", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, unpacking,
            { context, _, values in
                guard let context, let value = values?[0] else { return }
                let unpacking = Unmanaged<TextUnpacking>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                unpacking.call(context, value)
            },
            nil, nil,
            { unpacking in unpacking.map { Unmanaged<TextUnpacking>.fromOpaque($0).release() } }
        )
        guard result == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: result), message: "cannot add item_text") }
    }

    private func call(_ context: OpaquePointer, _ value: OpaquePointer) {
        guard sqlite3_value_type(value) == SQLITE_BLOB else { return sqlite3_result_value(context, value) }
        let packed = UnsafeRawBufferPointer(start: sqlite3_value_blob(value), count: Int(sqlite3_value_bytes(value)))
        do {
            let text = try unpack(packed, connection: sqlite3_context_db_handle(context))
            text.withUnsafeBufferPointer { text in
                sqlite3_result_text(context, text.baseAddress.map(UnsafeRawPointer.init)?.assumingMemoryBound(to: CChar.self), Int32(text.count), SQLITE_TRANSIENT)
            }
        } catch let damage as DamagedPackedText {
            dictionaries.noteDamage(damage)
            sqlite3_result_null(context)
        } catch {
            sqlite3_result_error(context, "\(error)", -1)
            // An interrupted read stays one, which GRDB turns into the task's cancellation.
            if let error = error as? DatabaseError { sqlite3_result_error_code(context, error.extendedResultCode.rawValue) }
        }
    }

    /// The text `packed` holds, in ``buffer``.
    private func unpack(_ packed: UnsafeRawBufferPointer, connection: OpaquePointer) throws -> ArraySlice<UInt8> {
        guard let header = PackedText.readHeader(packed) else { throw DamagedPackedText.value("is not a packed text") }
        let dictionary = try dictionaries.dictionary(header.dictionary, connection: connection)
        if buffer.count < header.length { buffer = [UInt8](repeating: 0, count: header.length) }
        let frame = UnsafeRawBufferPointer(rebasing: packed[header.frameStart...])
        let written = buffer.withUnsafeMutableBytes { buffer in
            ZSTD_DCtx_refDDict(context, dictionary.unpacking)
            return ZSTD_decompressDCtx(context, buffer.baseAddress, header.length, frame.baseAddress, frame.count)
        }
        guard ZSTD_isError(written) == 0 else {
            ZSTD_DCtx_reset(context, ZSTD_reset_session_and_parameters)
            ZSTD_DCtx_setParameter(context, ZSTD_d_experimentalParam1, Int32(ZSTD_f_zstd1_magicless.rawValue))
            throw DamagedPackedText.value("cannot be unpacked (\(String(cString: ZSTD_getErrorName(written))))")
        }
        guard written == header.length else { throw DamagedPackedText.value("holds \(written) bytes where its header says \(header.length)") }
        return buffer[..<written]
    }
}

/// SQLite copies a result given with it before the call returns.
let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
