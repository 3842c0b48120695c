import Indexing

/// The search postings (``SearchPostings``) saved beside their database (`index.sqlite.postings`) with the commit they
/// hold, so that a restarted service reads them in seconds and catches up the commits since, instead of building them
/// again from every row.
///
/// The file starts with a header (a magic number, the format's version, which fields' words it keeps, the identity
/// of the database it belongs to, the commit) and ends with a checksum of everything before it (``SavedFileWriter``).
/// It is written whole beside the old one and renamed over it, so a crash leaves one or the other; one that is cut
/// short, damaged, of another format or setting, of another database, or of a commit the database has not reached
/// (restored from an older backup) is refused with the reason, and the postings are built again.
struct SavedPostingsFile {
    /// "SPOSTNGS", in the machine's byte order: a file of the other order is refused.
    static let magic: UInt64 = 0x5350_4F53_544E_4753
    static let formatVersion: UInt32 = 1
    /// The longest identity a header holds (the database's is 32 hexadecimal digits).
    static let maxIdentityBytes = 64

    let path: String
    /// What the file's name adds to its database's.
    static let suffix = ".postings"

    /// The file of the database at `databasePath`.
    init(databasePath: String) {
        path = databasePath + Self.suffix
    }

    /// Writes `held`, the postings of the database `identity` keeping `fields`, in place of the file, unless
    /// `isCancelled` says to give up.
    func save(
        _ held: SearchPostings.Held, identity: String, fields: SearchPostingsFields, isCancelled: @escaping () -> Bool
    ) throws {
        let file = try SavedFileWriter(replacing: path, isCancelled: isCancelled)
        try file.write(Self.magic)
        try file.write(Self.formatVersion)
        try file.write(UInt8(fields == .all ? 1 : 0))
        try file.write(counted: Array(identity.utf8.prefix(Self.maxIdentityBytes)))
        try held.write(to: file)
        try file.finish()
    }

    /// The postings the file holds for the database `identity` keeping `fields`, whose last commit is `lastCommit`;
    /// `nil` when there is no file. Throws ``SavedFileReader/Unusable`` with the reason the file cannot be used.
    func load(identity: String, fields: SearchPostingsFields, lastCommit: Int64) throws(SavedFileReader.Unusable) -> SearchPostings.Held? {
        guard var file = try SavedFileReader(path: path) else { return nil }
        guard try file.read(UInt64.self) == Self.magic else { throw SavedFileReader.Unusable(reason: "it is not a saved postings file") }
        let version = try file.read(UInt32.self)
        guard version == Self.formatVersion else {
            throw SavedFileReader.Unusable(reason: "it is of format \(version), this build reads format \(Self.formatVersion)")
        }
        let allFields = try file.read(UInt8.self) == 1
        guard allFields == (fields == .all) else {
            throw SavedFileReader.Unusable(reason: "it keeps \(allFields ? "every field's" : "the best fields'") words, the setting is now `\(fields.rawValue)`")
        }
        let saved = try file.readCounted(UInt8.self)
        guard saved.count <= Self.maxIdentityBytes, String(decoding: saved, as: UTF8.self) == identity else {
            throw SavedFileReader.Unusable(reason: "it belongs to another database")
        }
        try file.verifyChecksum()
        let held = try SearchPostings.Held(reading: &file, allFields: allFields)
        try file.verifyEnd()
        guard held.commitNumber <= lastCommit else {
            throw SavedFileReader.Unusable(
                reason: "it holds commit \(held.commitNumber), the database only \(lastCommit): the database was restored from an older copy"
            )
        }
        return held
    }
}
