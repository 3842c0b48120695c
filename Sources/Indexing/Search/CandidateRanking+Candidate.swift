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

        /// A candidate with the UTF-8 that `utf8` gives for each field (`nil`: absent). `utf8` is called twice for each
        /// field, once to size the buffer and once to copy; its bytes need only stay valid until its next call. The
        /// lengths kept are those of the bytes copied.
        package convenience init(id: Int64, rankingHint: Int?, page: String, utf8: (SearchColumn) -> UnsafeBufferPointer<UInt8>?) {
            let packed = Self.pack(textBytes: Self.columns.reduce(0) { $0 + (utf8($1)?.count ?? 0) }) { column, packed in
                guard let text = utf8(column) else { return false }
                packed.append(contentsOf: text)
                return true
            }
            self.init(id: id, rankingHint: rankingHint, page: page, packed: packed)
        }

        package convenience init(
            id: Int64, title: String?, displayName: String?, keywords: String?, authorNames: String?, contentDescription: String?, rankingHint: Int?,
            page: String
        ) {
            let texts = [title, displayName, keywords, authorNames, contentDescription]
            let packed = Self.pack(textBytes: texts.reduce(0) { $0 + ($1?.utf8.count ?? 0) }) { column, packed in
                guard let text = texts[column.position] else { return false }
                packed.append(contentsOf: text.utf8)
                return true
            }
            self.init(id: id, rankingHint: rankingHint, page: page, packed: packed)
        }

        /// The columns, in the order the buffer holds them.
        private static let columns = SearchColumn.allCases

        /// The buffer of the fields `append` writes, with room for `textBytes` of text: `append` is called once for
        /// each column, in order, appends that field's UTF-8, and says whether the candidate has the field.
        private static func pack(textBytes: Int, _ append: (SearchColumn, inout [UInt8]) -> Bool) -> [UInt8] {
            var packed: [UInt8] = []
            packed.reserveCapacity(headerBytes + textBytes)
            packed.append(contentsOf: repeatElement(0, count: headerBytes))
            for column in columns {
                let start = packed.count
                let length = append(column, &packed) ? packed.count - start : nil
                // SQLite holds no text of 4 GiB (its length limit is 1 GB at most), nor does an item.
                precondition(length.map { $0 < Int(absent) } ?? true, "a field of 4 GiB or more")
                let value = length.map { UInt32($0) } ?? absent
                for byte in 0..<4 { packed[column.position * 4 + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
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

            /// The UTF-8 of `column`, `nil` when the candidate does not have that field.
            package subscript(column: SearchColumn) -> UnsafeBufferPointer<UInt8>? {
                var offset = Candidate.headerBytes
                for index in 0..<column.position {
                    let length = length(at: index)
                    if length != Candidate.absent { offset += Int(length) }
                }
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
