import GRDB
import Indexing

extension SQLiteSearchIndex {
    /// What ``packStoredDescriptions(rowsATransaction:)`` did: how many descriptions it packed, and their bytes as they
    /// were written and packed.
    public struct DescriptionsPacked: Sendable, Equatable {
        public var descriptions = 0
        public var bytesAsWritten = 0
        public var bytesPacked = 0
    }

    /// Packs the descriptions stored as written that the index's dictionary packs (``PackedText``): those of a
    /// database written by a release before packing, or before the index held enough descriptions to learn a
    /// dictionary from, which stay so until written again. Trains the dictionary first when there is none; `nil` when
    /// there are too few descriptions to. `rowsATransaction` rows are read a transaction, so that other writers wait
    /// for a moment at most; a run cut short leaves every row either packed or as it was, and the next picks up where
    /// it left off.
    ///
    /// A row's text does not change, so neither does its commit number: the search postings, their candidate records
    /// and FTS5 hold the same words.
    public func packStoredDescriptions(rowsATransaction: Int = 10_000) async throws -> DescriptionsPacked? {
        var packed = DescriptionsPacked()
        var after: Int64 = .min
        while true {
            let textPacking = textPacking
            let step = try await write { [after] db -> (last: Int64?, packed: DescriptionsPacked)? in
                let packer = try textPacking.packer(db, writing: [])
                guard packer.packs else { return nil }
                let rows = try Row.fetchAll(
                    db.cachedStatement(sql: "SELECT id, contentDescription FROM item WHERE id > ? AND typeof(contentDescription) = 'text' ORDER BY id LIMIT ?"),
                    arguments: [after, rowsATransaction]
                )
                var step = DescriptionsPacked()
                for row in rows {
                    let text: String = row[1]
                    let value = packer.pack(text)
                    guard case .blob(let bytes) = value.storage else { continue }
                    try db.cachedStatement(sql: "UPDATE item SET contentDescription = ? WHERE id = ?").execute(arguments: [value, row[0]])
                    step.descriptions += 1
                    step.bytesAsWritten += text.utf8.count
                    step.bytesPacked += bytes.count
                }
                return (rows.last?[0], step)
            }
            guard let step else { return packed.descriptions > 0 ? packed : nil }
            packed.descriptions += step.packed.descriptions
            packed.bytesAsWritten += step.packed.bytesAsWritten
            packed.bytesPacked += step.packed.bytesPacked
            guard let last = step.last else { return packed }
            after = last
        }
    }
}
