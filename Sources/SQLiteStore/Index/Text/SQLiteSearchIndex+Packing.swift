import GRDB
import Indexing

extension SQLiteSearchIndex {
    /// Text ``packStoredDescriptions(rowsATransaction:)`` reads a transaction at most: 32 MB.
    static let packedBytesATransaction = 32 << 20

    /// What ``packStoredDescriptions(rowsATransaction:)`` did: how many descriptions it packed, and their bytes as they
    /// were written and packed.
    public struct DescriptionsPacked: Sendable, Equatable {
        public var descriptions = 0
        public var bytesAsWritten = 0
        public var bytesPacked = 0

        mutating func add(_ other: DescriptionsPacked) {
            descriptions += other.descriptions
            bytesAsWritten += other.bytesAsWritten
            bytesPacked += other.bytesPacked
        }
    }

    /// Packs the descriptions stored as written that the index's dictionary packs (``PackedText``): those of a
    /// database written by a release before packing, or before the index held enough descriptions to learn a
    /// dictionary from, which stay so until written again. Trains the dictionary first when there is none; `nil` when
    /// there are too few descriptions to. At most `rowsATransaction` rows, and ``packedBytesATransaction`` of their
    /// text, are packed a transaction, so that other writers wait for a moment at most; a run cut short leaves every
    /// row either packed or as it was, and the next packs what is left.
    ///
    /// A row's text does not change, so neither does its commit number: the search postings and their candidate records
    /// hold the same words.
    public func packStoredDescriptions(rowsATransaction: Int = 10_000) async throws -> DescriptionsPacked? {
        let bytesATransaction = Self.packedBytesATransaction
        var packed = DescriptionsPacked()
        var after: Int64 = .min
        while true {
            let textPacking = textPacking
            let step = try await write { [after] db -> (last: Int64?, packed: DescriptionsPacked)? in
                let packer = try textPacking.packer(db, writing: [])
                guard packer.packs else { return nil }
                let rows = try Row.fetchCursor(
                    db.cachedStatement(sql: """
                        SELECT id, contentDescription FROM item WHERE id > ? AND \(PackedText.storedPlainWorthPacking) ORDER BY id LIMIT ?
                        """),
                    arguments: [after, rowsATransaction]
                )
                var (step, last, read) = (DescriptionsPacked(), Int64?.none, 0)
                var packed: [(id: Int64, value: DatabaseValue)] = []
                while read < bytesATransaction, let row = try rows.next() {
                    let text: String = row[1]
                    last = row[0]
                    read += text.utf8.count
                    let value = packer.pack(text)
                    guard case .blob(let bytes) = value.storage else { continue }
                    packed.append((row[0], value))
                    step.add(DescriptionsPacked(descriptions: 1, bytesAsWritten: text.utf8.count, bytesPacked: bytes.count))
                }
                // Written once the read is over: a statement does not write the table another walks.
                for (id, value) in packed {
                    try db.cachedStatement(sql: "UPDATE item SET contentDescription = ? WHERE id = ?").execute(arguments: [value, id])
                }
                return (last, step)
            }
            guard let step else { return packed.descriptions > 0 ? packed : nil }
            packed.add(step.packed)
            guard let last = step.last else { return packed }
            after = last
        }
    }
}
