import ArgumentParser
import Indexing
import SQLiteStore

/// `scheduler index pack`: packs the descriptions an SQLite index stores as written.
struct PackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack",
        abstract: "Pack the descriptions an SQLite index stores as written: those of a database an earlier release wrote, or written before the index held enough to train its dictionary.",
        discussion: """
            Descriptions are packed with the index's Zstandard dictionary, trained first when there is none (from at least 1,000 \
            descriptions), 10,000 rows a transaction: the service may run meanwhile, and a run cut short leaves each row packed or \
            as it was. Searches find the same items. The file keeps its size: later writes reuse the space freed, and \
            `sqlite3 FILE VACUUM`, with the service stopped, gives it back to the disk.
            """
    )

    @OptionGroup var store: StoreOptions

    func run() async throws {
        guard case .sqlite = try store.location() else {
            throw UserError("only an SQLite index packs its descriptions (PostgreSQL compresses long text itself)")
        }
        let packed = try await store.withStore(logger: CommandLogger.make()) { store in
            try await (store.index as? SQLiteSearchIndex)?.packStoredDescriptions()
        }
        guard let packed else {
            return print("nothing packed: no dictionary to pack with (fewer than 1,000 distinct descriptions of 48 bytes or more to train one on, or a damaged one, which a warning above names)")
        }
        guard packed.descriptions > 0 else { return print("nothing to pack: every description worth packing is packed") }
        print(String(
            format: "packed %d descriptions: %.1f MB as written, %.1f MB packed (%.1f times smaller)",
            packed.descriptions, Double(packed.bytesAsWritten) / 1e6, Double(packed.bytesPacked) / 1e6,
            Double(packed.bytesAsWritten) / Double(max(packed.bytesPacked, 1))
        ))
    }
}
