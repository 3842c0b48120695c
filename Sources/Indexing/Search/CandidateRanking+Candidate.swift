extension CandidateRanking {
    /// One candidate: what ranking reads of an item. Each searchable field's words, folded as the index folds them
    /// (``FoldedWords``; keywords and author names from their stored JSON form), with its ranking hint and page.
    ///
    /// The words are folded once, when the row is read, and kept in one buffer after their lengths: scoring reads a
    /// candidate's fields one after another, and candidates shared between searches (`CandidateRowCache` in the SQLite
    /// store) are read by many, so one allocation, touched once, replaces a string per field (each one more cache miss
    /// and one more reference count to change on every read), and no search folds a field again. Only the words
    /// scoring reads are kept: those of each field's first ``RelevanceScore/scoredBytesPerField`` bytes. A class:
    /// candidates are passed between scans, levels and searches, and a copy is one retain.
    package final class Candidate: Sendable {
        package let id: Int64
        package let rankingHint: Int?
        /// The page it belongs to: its `relatedUniqueIdentifier`, else its own identifier (``SearchDistinct/page``).
        package var page: String {
            if case .numbered(let fields) = words { return String(decoding: fields.page, as: UTF8.self) }
            return pageString
        }
        /// The page, but for a candidate whose words are numbered: its page's UTF-8 lies with them, and is made a
        /// string only when asked (most searches never ask, and a string is an allocation a candidate).
        private let pageString: String
        private let words: Words

        /// Where the fields' words are.
        private enum Words: Sendable {
            /// For each field, in ``SearchColumn`` order, the bytes of its folded words (``absent`` for a field it does
            /// not have) and how many words they are, each as four little-endian bytes; then the folded words of each
            /// field it has, in the same order.
            case packed([UInt8])
            /// Numbers of words in a list kept elsewhere (``NumberedFields``).
            case numbered(NumberedFields)
        }

        /// The length that stands for an absent field.
        private static let absent = UInt32.max
        /// The columns, in the order the buffer holds them.
        private static let columns = SearchColumn.allCases
        /// The bytes before the first field's words.
        private static let headerBytes = columns.count * 8

        /// A candidate with the UTF-8 that `utf8` gives for each field (`nil`: absent); its bytes need only stay valid
        /// until its next call.
        package init(id: Int64, rankingHint: Int?, page: String, utf8: (SearchColumn) -> UnsafeBufferPointer<UInt8>?) {
            self.id = id
            self.rankingHint = rankingHint
            pageString = page
            words = .packed(Self.pack { column, fold in
                if let text = utf8(column) { fold(text) }
            })
        }

        package init(
            id: Int64, title: String?, displayName: String?, keywords: String?, authorNames: String?, contentDescription: String?, rankingHint: Int?,
            page: String
        ) {
            self.id = id
            self.rankingHint = rankingHint
            pageString = page
            let texts = [title, displayName, keywords, authorNames, contentDescription]
            words = .packed(Self.pack { column, fold in
                guard var text = texts[column.position] else { return }
                text.withUTF8(fold)
            })
        }

        /// A candidate whose fields and page are those of `fields`.
        package init(id: Int64, rankingHint: Int?, fields: NumberedFields) {
            self.id = id
            self.rankingHint = rankingHint
            pageString = ""
            words = .numbered(fields)
        }

        /// The buffer of the fields `withText` hands over: called once for each column, in order, it calls its second
        /// argument with the field's UTF-8, if the candidate has the field.
        private static func pack(_ withText: (SearchColumn, _ fold: (UnsafeBufferPointer<UInt8>) -> Void) -> Void) -> [UInt8] {
            var packed = [UInt8](repeating: 0, count: headerBytes)
            for column in columns {
                let start = packed.count
                var words: Int?
                withText(column) { text in
                    let scored = UnsafeBufferPointer(rebasing: text.prefix(RelevanceScore.scoredBytesPerField))
                    words = FoldedWords.append(wordsOf: scored, to: &packed)
                }
                // The words of 4 KiB of text take a few KiB.
                setSlot(2 * column.position, to: words.map { _ in UInt32(packed.count - start) } ?? absent, in: &packed)
                setSlot(2 * column.position + 1, to: UInt32(words ?? 0), in: &packed)
            }
            // Appending left up to twice the room the words take: a candidate lives on in the row cache, so it keeps
            // a buffer of its size (a third less memory a cached row at a million items, BENCHMARKS.md).
            return [UInt8](unsafeUninitializedCapacity: packed.count) { buffer, count in
                count = buffer.initialize(fromContentsOf: packed)
            }
        }

        private static func setSlot(_ slot: Int, to value: UInt32, in packed: inout [UInt8]) {
            for byte in 0..<4 { packed[slot * 4 + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
        }

        /// Calls `body` with the candidate's fields, whose bytes are valid only during the call.
        func withFields<Result>(_ body: (Fields) -> Result) -> Result {
            switch words {
            case .packed(let packed): packed.withUnsafeBufferPointer { body(Fields(packed: $0)) }
            case .numbered(let numbered): body(Fields(numbered: numbered))
            }
        }

        /// The bytes its own buffer holds: its fields' words and their lengths (none when its words are numbered).
        package var packedBytes: Int {
            if case .packed(let packed) = words { packed.count } else { 0 }
        }
        /// The bytes its own buffer has room for: what it takes of the process's memory.
        package var packedCapacity: Int {
            if case .packed(let packed) = words { packed.capacity } else { 0 }
        }

        /// A candidate's fields, by column: each one's folded words, `nil` when absent.
        struct Fields {
            private let packed: UnsafeBufferPointer<UInt8>
            private let numbered: NumberedFields?

            fileprivate init(packed: UnsafeBufferPointer<UInt8>) {
                self.packed = packed
                numbered = nil
            }

            fileprivate init(numbered: NumberedFields) {
                packed = UnsafeBufferPointer(start: nil, count: 0)
                self.numbered = numbered
            }

            /// The folded words of `column`, `nil` when the candidate does not have that field.
            subscript(column: SearchColumn) -> FoldedWords? {
                if let numbered { return numbered[column] }
                let length = slot(2 * column.position)
                guard length != Candidate.absent else { return nil }
                var offset = Candidate.headerBytes
                for index in 0..<column.position {
                    let length = slot(2 * index)
                    if length != Candidate.absent { offset += Int(length) }
                }
                return FoldedWords(bytes: UnsafeBufferPointer(rebasing: packed[offset..<(offset + Int(length))]), count: Int(slot(2 * column.position + 1)))
            }

            private func slot(_ index: Int) -> UInt32 {
                UInt32(littleEndian: UnsafeRawPointer(packed.baseAddress! + index * 4).loadUnaligned(as: UInt32.self))
            }
        }
    }
}
