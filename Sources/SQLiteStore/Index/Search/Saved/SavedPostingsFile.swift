import Foundation
import Indexing

#if canImport(Glibc)
import Glibc
#endif

/// The search postings (``SearchPostings``) saved beside their database (`index.sqlite.postings`) with the commit they
/// hold, so that a restarted service reads them in seconds and catches up the commits since, instead of building them
/// again from every row.
///
/// The file starts with a header (a magic number, the format's version, which fields' words it keeps, a random token)
/// and ends with a checksum of everything before it (``SavedFileWriter``). It is written whole beside the old one and
/// renamed over it, so a crash leaves one or the other. Once it is in place, its token is written into the database
/// (`index_commit.savedPostings`): a database holding the token made the commit the file holds, in the same history,
/// since a copy or backup of it made before the save lacks the token and every later save writes a new one. A file
/// that is cut short or damaged, of another format or setting, whose token the database does not hold (another
/// database, a restored backup, a save the crash cut before its token was written), or that is unusable in any other
/// way is refused with the reason, and the postings are built again.
struct SavedPostingsFile {
    /// "SPOSTNGS", in the machine's byte order: a file of the other order is refused.
    static let magic: UInt64 = 0x5350_4F53_544E_4753
    /// 2: members aligned, read in place from the mapped file. 3: prefixes of up to four letters (six before). 4: the
    /// candidate records (``CandidateRecords``).
    static let formatVersion: UInt32 = 4
    /// The length of a token: 32 hexadecimal digits.
    static let tokenBytes = 32

    let path: String
    /// What the file's name adds to its database's.
    static let suffix = ".postings"

    /// The file of the database at `databasePath`.
    init(databasePath: String) {
        path = databasePath + Self.suffix
    }

    /// The file at `path`: one a build in segments merged its segments into (``PostingsSegments``).
    init(path: String) {
        self.path = path
    }

    /// Which fields' words the file keeps, from its header alone; `nil` when there is no file, or not one of this
    /// format.
    func fields() -> SearchPostingsFields? {
        do {
            guard var file = try SavedFileReader(path: path) else { return nil }
            return try Self.readSetting(&file)
        } catch {
            return nil
        }
    }

    /// A new random token for a save.
    static func newToken() -> String {
        (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    /// Writes `held`, the postings keeping `fields`, in place of the file with `token`, unless `isCancelled` says to
    /// give up.
    func save(_ held: SearchPostings.Held, token: String, fields: SearchPostingsFields, isCancelled: @escaping @Sendable () -> Bool) throws {
        let file = try SavedFileWriter(replacing: path, isCancelled: isCancelled)
        try Self.writeHeader(to: file, fields: fields, token: token)
        try held.write(to: file)
        try file.finish()
    }

    /// Writes the header of a file keeping `fields`, whose token is `token`.
    static func writeHeader(to file: SavedFileWriter, fields: SearchPostingsFields, token: String) throws {
        try file.write(magic)
        try file.write(formatVersion)
        try file.write(UInt8(fields == .all ? 1 : 0))
        try file.write(counted: Array(token.utf8))
    }

    /// The header up to the setting: which fields' words the file keeps. Throws when the file is not a saved postings
    /// file, or of another format.
    private static func readSetting(_ file: inout SavedFileReader) throws(SavedFileReader.Unusable) -> SearchPostingsFields {
        guard try file.read(UInt64.self) == magic else { throw SavedFileReader.Unusable(reason: "it is not a saved postings file") }
        let version = try file.read(UInt32.self)
        guard version == formatVersion else {
            throw SavedFileReader.Unusable(reason: "it is of format \(version), this build reads format \(formatVersion)")
        }
        return try file.read(UInt8.self) == 1 ? .all : .best
    }

    /// The postings the file holds, when its token is `token` (the database's), it keeps `fields` and it holds no more
    /// than `maxWords` words and no commit after `lastCommit`; `nil` when there is no file. Throws
    /// ``SavedFileReader/Unusable`` with the reason the file cannot be used.
    func load(token: String, fields: SearchPostingsFields, lastCommit: Int64, maxWords: Int) throws(SavedFileReader.Unusable) -> SearchPostings.Held? {
        guard var file = try SavedFileReader(path: path) else { return nil }
        let allFields = try Self.readSetting(&file) == .all
        guard allFields == (fields == .all) else {
            throw SavedFileReader.Unusable(reason: "it keeps \(allFields ? "every field's" : "the best fields'") words, the setting is now `\(fields.rawValue)`")
        }
        let saved = try file.readCounted(UInt8.self)
        guard saved.count == Self.tokenBytes, String(decoding: saved, as: UTF8.self) == token else {
            throw SavedFileReader.Unusable(
                reason: "the database does not hold its token: it belongs to another database, or to another history of this one (a restored backup), or its save was cut short"
            )
        }
        let held: SearchPostings.Held
        do {
            held = try SearchPostings.Held(reading: &file, allFields: allFields)
            try file.verifyChecksum()
        } catch {
            throw SavedFileReader.Unusable(reason: "it is cut short or damaged: \(error.reason)")
        }
        guard held.commitNumber <= lastCommit, held.exactFrom <= lastCommit else {
            throw SavedFileReader.Unusable(reason: "it holds commit \(max(held.commitNumber, held.exactFrom)), the database only \(lastCommit)")
        }
        guard held.wordCount <= maxWords else { throw SavedFileReader.Unusable(reason: "it holds \(held.wordCount) words, more than the \(maxWords) kept") }
        return held
    }
}
