/// Words by number, each one's folded bytes found from where it starts in one run of bytes: the vocabulary that
/// numbered words (``FoldedWords``) are read through. It points into memory its maker keeps (a mapped saved file, or
/// buffers of its own) and checks once, when made, that every word lies inside it, so that no number read later can
/// lead a read outside.
package struct WordList: @unchecked Sendable {
    /// Where each word starts in ``bytes``, and where the last one ends: never decreasing, the last one within ``bytes``.
    package let starts: UnsafeBufferPointer<UInt32>
    package let bytes: UnsafeBufferPointer<UInt8>

    /// The words `bytes` holds, word `n` from `starts[n]` to `starts[n + 1]`; `nil` unless `starts` is one longer than
    /// the words, starts at 0, never decreases and ends within `bytes`.
    package init?(starts: UnsafeBufferPointer<UInt32>, bytes: UnsafeBufferPointer<UInt8>) {
        guard let first = starts.first, first == 0, let last = starts.last, Int(last) <= bytes.count else { return nil }
        for index in starts.indices.dropFirst() where starts[index] < starts[index - 1] { return nil }
        self.starts = starts
        self.bytes = bytes
    }

    /// How many words.
    package var count: Int { starts.count - 1 }

    /// The bytes it points to: its words and where each starts.
    package var byteCount: Int { starts.count * 4 + bytes.count }

    /// Word `number`'s bytes; `number` must be less than ``count``.
    package subscript(number: Int) -> UnsafeBufferPointer<UInt8> {
        let start = Int(starts[number])
        return UnsafeBufferPointer(start: bytes.baseAddress! + start, count: Int(starts[number + 1]) - start)
    }
}

/// Unsigned integers written in as few bytes as they need, seven bits a byte, the lowest first, each byte but the last
/// with its high bit set (LEB128): how numbered words and candidate records keep small numbers small.
package enum Varint {
    /// Appends `value` to `buffer`.
    package static func append(_ value: UInt64, to buffer: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        buffer.append(UInt8(value))
    }

    /// Reads varints one after another from a run of bytes, never past its end.
    package struct Reader {
        private var position: UnsafePointer<UInt8>?
        private let end: UnsafePointer<UInt8>?

        package init(_ bytes: UnsafeBufferPointer<UInt8>) {
            position = bytes.baseAddress
            end = bytes.baseAddress.map { $0 + bytes.count }
        }

        /// Whether every byte was read.
        package var isAtEnd: Bool { position == end }

        /// The bytes not read yet.
        package var rest: UnsafeBufferPointer<UInt8> {
            guard let position, let end else { return UnsafeBufferPointer(start: nil, count: 0) }
            return UnsafeBufferPointer(start: position, count: end - position)
        }

        /// The next value; `nil` at the end, or when the bytes left do not end a value or hold one wider than 64 bits.
        package mutating func next() -> UInt64? {
            guard var at = position, let end else { return nil }
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while at < end {
                let byte = at.pointee
                at += 1
                guard shift < 64, shift < 63 || byte <= 1 else { return nil }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 {
                    position = at
                    return value
                }
                shift += 7
            }
            return nil
        }

        /// The next `count` bytes, and moves past them; `nil` when fewer are left.
        package mutating func take(_ count: Int) -> UnsafeBufferPointer<UInt8>? {
            guard let at = position, let end, count >= 0, count <= end - at else { return nil }
            position = at + count
            return UnsafeBufferPointer(start: at, count: count)
        }
    }
}
