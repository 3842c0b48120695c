extension CandidateRanking {
    /// One candidate's searchable fields, as stored (keywords and author names in their stored JSON form), with its
    /// ranking hint and page.
    ///
    /// The five fields' UTF-8 is kept in one buffer, after their lengths: scoring reads a candidate's fields one after
    /// another, and candidates shared between searches (`CandidateRowCache` in the SQLite store) are read by many, so
    /// one allocation, touched once, replaces a string per field (each one more cache miss and one more reference
    /// count to change on every read). A class: candidates are passed between scans, levels and searches, and a copy
    /// is one retain.
    package final class Candidate: Sendable {
        package let id: Int64
        package let rankingHint: Int?
        /// The page it belongs to: its `relatedUniqueIdentifier`, else its own identifier (``SearchDistinct/page``).
        package let page: String
        /// Each field's length in UTF-8 bytes as four little-endian bytes (``absent`` for a field it does not have),
        /// in ``SearchColumn`` order, then the fields' UTF-8 in the same order.
        private let packed: [UInt8]

        /// The length that stands for an absent field.
        private static let absent = UInt32.max
        /// The bytes before the first field's text.
        private static let headerBytes = columns.count * 4

        private init(id: Int64, rankingHint: Int?, page: String, packed: [UInt8]) {
            self.id = id
            self.rankingHint = rankingHint
            self.page = page
            self.packed = packed
        }

        /// A candidate with the UTF-8 that `utf8` gives for each field (`nil`: absent); `utf8` is called twice for
        /// each field, and its bytes need only stay valid until the next call.
        package convenience init(id: Int64, rankingHint: Int?, page: String, utf8: (SearchColumn) -> UnsafeBufferPointer<UInt8>?) {
            var packed = Self.header { utf8($0)?.count }
            for column in Self.columns {
                if let text = utf8(column) { packed.append(contentsOf: text) }
            }
            self.init(id: id, rankingHint: rankingHint, page: page, packed: packed)
        }

        package convenience init(
            id: Int64, title: String?, displayName: String?, keywords: String?, authorNames: String?, contentDescription: String?, rankingHint: Int?,
            page: String
        ) {
            let texts = [title, displayName, keywords, authorNames, contentDescription]
            var packed = Self.header { texts[$0.position]?.utf8.count }
            for case let text? in texts { packed.append(contentsOf: text.utf8) }
            self.init(id: id, rankingHint: rankingHint, page: page, packed: packed)
        }

        private static let columns = SearchColumn.allCases

        /// The fields' lengths (`length`, `nil` for an absent field), in a buffer with room for their text.
        private static func header(length: (SearchColumn) -> Int?) -> [UInt8] {
            var packed: [UInt8] = []
            packed.reserveCapacity(columns.reduce(headerBytes) { $0 + (length($1) ?? 0) })
            for column in columns {
                let value = length(column).map { UInt32($0) } ?? absent
                for shift in stride(from: 0, to: 32, by: 8) { packed.append(UInt8(truncatingIfNeeded: value >> shift)) }
            }
            return packed
        }

        /// Calls `body` with the candidate's fields, whose bytes are valid only during the call.
        package func withFields<Result>(_ body: (Fields) -> Result) -> Result {
            packed.withUnsafeBufferPointer { body(Fields(packed: $0)) }
        }

        /// The stored text of `column`.
        package func text(_ column: SearchColumn) -> String? {
            withFields { $0[column].map { String(decoding: $0, as: UTF8.self) } }
        }

        /// The bytes it holds: its fields' text and their lengths.
        package var packedBytes: Int { packed.count }

        /// A candidate's fields, by column: each one's UTF-8, `nil` when absent.
        package struct Fields {
            fileprivate let packed: UnsafeBufferPointer<UInt8>

            package subscript(column: SearchColumn) -> UnsafeBufferPointer<UInt8>? {
                var offset = Candidate.headerBytes
                for index in 0..<column.position { offset += Int(length(at: index) == Candidate.absent ? 0 : length(at: index)) }
                let length = length(at: column.position)
                guard length != Candidate.absent else { return nil }
                return UnsafeBufferPointer(rebasing: packed[offset..<(offset + Int(length))])
            }

            private func length(at index: Int) -> UInt32 {
                UInt32(littleEndian: UnsafeRawPointer(packed.baseAddress! + index * 4).loadUnaligned(as: UInt32.self))
            }
        }
    }
}
