extension CandidateRanking {
    /// A candidate's fields as the numbers of their words in a ``WordList``: what the candidate records a store keeps
    /// beside its postings hold, a byte or two a word instead of the word, read where they lie.
    ///
    /// For each field, in ``SearchColumn`` order: 0 for a field the item does not have, else the bytes its numbers
    /// take plus one, then how many words it has, then the numbers (each a ``Varint``). The words are those a
    /// ``Candidate`` made from the text keeps: the folded words of the field's first
    /// ``RelevanceScore/scoredBytesPerField`` bytes.
    package struct NumberedFields: @unchecked Sendable {
        /// Keeps the memory ``bytes`` and ``vocabulary`` point into.
        private let owner: any AnyObject & Sendable
        private let vocabulary: WordList
        private let bytes: UnsafeBufferPointer<UInt8>
        /// The candidate's page, as UTF-8 (``Candidate/page``).
        let page: UnsafeBufferPointer<UInt8>

        /// The fields `bytes` holds, numbered in `vocabulary`, with the page whose UTF-8 is `page`, all kept by `owner`.
        package init(
            _ bytes: UnsafeBufferPointer<UInt8>, page: UnsafeBufferPointer<UInt8>, vocabulary: WordList, keptBy owner: any AnyObject & Sendable
        ) {
            self.bytes = bytes
            self.page = page
            self.vocabulary = vocabulary
            self.owner = owner
        }

        /// The words of `column`, `nil` when the item does not have that field (or the bytes do not say).
        subscript(column: SearchColumn) -> FoldedWords? {
            var reader = Varint.Reader(bytes)
            for position in 0...column.position {
                guard let header = reader.next() else { return nil }
                guard header > 0 else {
                    if position == column.position { return nil }
                    continue
                }
                guard let count = reader.next(), let numbers = reader.take(Int(clamping: header - 1)) else { return nil }
                if position == column.position { return FoldedWords(numbers: numbers, count: Int(clamping: count), vocabulary: vocabulary) }
            }
            return nil
        }

        /// Appends to `buffer` the fields whose UTF-8 `utf8` gives (`nil`: absent), each word numbered by `number`;
        /// false (with `buffer` as it was) when `number` gives none for a word.
        package static func append(
            utf8: (SearchColumn) -> UnsafeBufferPointer<UInt8>?, numbering number: (UnsafeBufferPointer<UInt8>) -> UInt64?, to buffer: inout [UInt8]
        ) -> Bool {
            let start = buffer.count
            var folded: [UInt8] = [], numbers: [UInt8] = []
            for column in SearchColumn.allCases {
                guard let text = utf8(column) else {
                    buffer.append(0)
                    continue
                }
                folded.removeAll(keepingCapacity: true)
                numbers.removeAll(keepingCapacity: true)
                let count = FoldedWords.append(wordsOf: UnsafeBufferPointer(rebasing: text.prefix(RelevanceScore.scoredBytesPerField)), to: &folded)
                var numbered = true
                folded.withUnsafeBufferPointer { folded in
                    FoldedWords(bytes: folded, count: count).forEach { word in
                        guard let value = number(word) else {
                            numbered = false
                            return false
                        }
                        Varint.append(value, to: &numbers)
                        return true
                    }
                }
                guard numbered else {
                    buffer.removeSubrange(start...)
                    return false
                }
                Varint.append(UInt64(numbers.count) + 1, to: &buffer)
                Varint.append(UInt64(count), to: &buffer)
                buffer += numbers
            }
            return true
        }
    }
}
