/// Failures of the index that a user can act on.
public enum IndexError: Error, Sendable, CustomStringConvertible {
    /// The host's SQLite library was built without FTS5.
    case fullTextSearchUnavailable(sqliteVersion: String)
    /// The database file cannot be opened or is not an index.
    case cannotOpen(path: String, reason: String)
    /// An item or operation was refused before anything was written.
    case invalidBatch(String)
    /// The database file was removed or replaced after this process opened it: writing on would go to a file
    /// no one will read again.
    case fileReplaced(path: String)
    /// The database lacks what its own schema promises (a row every migration writes): changed by hand or damaged.
    case damaged(String)

    public var description: String {
        switch self {
        case .fullTextSearchUnavailable(let version):
            "the SQLite library on this machine (version \(version)) was built without FTS5 full-text search; "
                + "install a libsqlite3 with FTS5 enabled (Debian's libsqlite3-0 has it)"
        case .cannotOpen(let path, let reason):
            "cannot open the index database at \(path): \(reason)"
        case .invalidBatch(let reason):
            "batch refused, nothing was written: \(reason)"
        case .fileReplaced(let path):
            "the database file \(path) was removed or replaced after this process opened it; nothing more is written "
                + "to the old file: restart the service to open the current one"
        case .damaged(let what):
            "the index's database is damaged: \(what); restore it from a backup"
        }
    }
}
