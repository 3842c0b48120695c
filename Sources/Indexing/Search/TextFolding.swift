import Foundation

/// Splits text into words and folds them as SQLite's FTS5 tokenizer (unicode61, diacritics removed), which the SQLite
/// index used until `v22-no-full-text-table`, does, character by character (``TokenizerFolding``): the SQLite index's
/// postings and scans, what a user types, the ranking, the highlights and the PostgreSQL and memory stores all read
/// words this way.
package enum TextFolding {
    /// ``forEachWord(in:_:)`` for text given as UTF-8 (invalid sequences read as U+FFFD, as `String` decodes them).
    package static func forEachWord(inUTF8 text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        if isASCII(text) {
            forEachASCIIWord(in: text, body)
        } else {
            forEachWord(inScalars: DecodedUTF8(bytes: text), body)
        }
    }

    /// Whether the folded `word` starts with the folded `term`, compared by their bytes. Most words differ from a term at
    /// their first byte: those are told apart without a call to compare the rest.
    package static func word(_ word: UnsafeBufferPointer<UInt8>, startsWith term: UnsafeBufferPointer<UInt8>) -> Bool {
        guard word.count >= term.count else { return false }
        guard let first = term.first else { return true }
        return word[0] == first && memcmp(word.baseAddress!, term.baseAddress!, term.count) == 0
    }

    /// Calls `body` with the UTF-8 bytes of each folded word of `text`, in order, until it returns `false`.
    /// The bytes are only valid during the call.
    package static func forEachWord(in text: some StringProtocol, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        // ASCII (most text, and every candidate a search scores): classify and lowercase byte by byte, in place
        // of a scratch buffer, without building strings or arrays.
        let wasASCII = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard isASCII(bytes) else { return false }
            forEachASCIIWord(in: bytes, body)
            return true
        }
        if wasASCII == true { return }
        forEachWord(inScalars: text.unicodeScalars, body)
    }

    /// ``forEachWord(in:_:)`` for any text, scalar by scalar.
    private static func forEachWord(inScalars scalars: some Sequence<Unicode.Scalar>, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        var word: [UInt8] = []
        func emit() -> Bool {
            defer { word.removeAll(keepingCapacity: true) }
            return word.isEmpty || word.withUnsafeBufferPointer(body)
        }
        for scalar in scalars {
            switch TokenizerFolding.fold(scalar) {
            case .word(let folded?): word.append(contentsOf: UTF8.encode(folded)!)
            case .word(nil): continue
            case .separator: if !emit() { return }
            }
        }
        _ = emit()
    }

    /// Calls `body` with each word of `text` as the index folds it (UTF-8 bytes, valid only during the call) and where
    /// it is in `text`, in UTF-16 code units, until it returns `false`; only the words that end within the first
    /// `maxBytes` of UTF-8 are read (not one the limit cuts). A word's range runs from its first word character to its
    /// last, those folded to nothing included.
    static func forEachWordRange(
        in text: String, maxBytes: Int = .max, _ body: (_ range: Range<Int>, _ folded: UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        // ASCII (most text): a UTF-8 byte is a UTF-16 unit, folding is lowercasing; no string is built per word.
        let wasASCII = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard isASCII(bytes) else { return false }
            forEachASCIIWordRange(in: bytes, maxBytes: maxBytes, body)
            return true
        }
        if wasASCII == true { return }
        var folded: [UInt8] = []
        var isInWord = false
        var offset = 0, start = 0, bytes = 0
        func emit() -> Bool {
            defer { folded.removeAll(keepingCapacity: true); isInWord = false }
            return !isInWord || folded.isEmpty || folded.withUnsafeBufferPointer { body(start..<offset, $0) }
        }
        for scalar in text.unicodeScalars {
            bytes += UTF8.width(scalar)
            let folding = TokenizerFolding.fold(scalar)
            if bytes > maxBytes {
                // A separator past the limit ends a word that ends at it: that word is read, not cut.
                if case .separator = folding { _ = emit() }
                return
            }
            switch folding {
            case .word(let character):
                if !isInWord { start = offset; isInWord = true }
                if let character { folded.append(contentsOf: UTF8.encode(character)!) }
            case .separator:
                if !emit() { return }
            }
            offset += UTF16.width(scalar)
        }
        _ = emit()
    }

    /// ``forEachWordRange(in:maxBytes:_:)`` for ASCII `bytes`: the same words and ranges.
    private static func forEachASCIIWordRange(
        in bytes: UnsafeBufferPointer<UInt8>, maxBytes: Int, _ body: (Range<Int>, UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, bytes.count)) { scratch in
            let base = UnsafePointer(scratch.baseAddress!)
            var length = 0, start = 0
            for (offset, byte) in bytes.enumerated() {
                // As the general path: a byte past the limit ends the walk; the word it would cut is not read, one it
                // ends is.
                if offset >= maxBytes {
                    if length > 0, !isASCIIWordByte(byte) { _ = body(start..<offset, UnsafeBufferPointer(start: base, count: length)) }
                    return
                }
                if isASCIIWordByte(byte) {
                    if length == 0 { start = offset }
                    scratch[length] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                    length += 1
                } else if length > 0 {
                    guard body(start..<offset, UnsafeBufferPointer(start: base, count: length)) else { return }
                    length = 0
                }
            }
            if length > 0 { _ = body(start..<(start + length), UnsafeBufferPointer(start: base, count: length)) }
        }
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var any: UInt8 = 0
        for byte in bytes { any |= byte }
        return any < 0x80
    }

    private static func forEachASCIIWord(in bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, bytes.count)) { scratch in
            let base = UnsafePointer(scratch.baseAddress!)
            var length = 0
            for byte in bytes {
                if isASCIIWordByte(byte) {
                    scratch[length] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                    length += 1
                } else if length > 0 {
                    guard body(UnsafeBufferPointer(start: base, count: length)) else { return }
                    length = 0
                }
            }
            if length > 0 { _ = body(UnsafeBufferPointer(start: base, count: length)) }
        }
    }

    private static func isASCIIWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }

    /// The scalars of UTF-8 bytes, each ill-formed sequence read as one U+FFFD, as `String(decoding:as:)` reads it
    /// (`TextFoldingTests` holds the two to the same scalars): the words of a candidate's bytes without a string made.
    private struct DecodedUTF8: Sequence {
        let bytes: UnsafeBufferPointer<UInt8>

        struct Iterator: IteratorProtocol {
            var bytes: UnsafeBufferPointer<UInt8>.Iterator
            var parser = Unicode.UTF8.ForwardParser()

            mutating func next() -> Unicode.Scalar? {
                switch parser.parseScalar(from: &bytes) {
                case .valid(let encoded): Unicode.UTF8.decode(encoded)
                case .error: "\u{FFFD}"
                case .emptyInput: nil
                }
            }
        }

        func makeIterator() -> Iterator { Iterator(bytes: bytes.makeIterator()) }
    }

    /// Letters to today's Unicode that unicode61 separates words with: its tables predate their change from
    /// spacing marks to letters (New Tai Lue vowel signs, two Vedic signs). Found by asking SQLite's tokenizer
    /// about every character; the index's FTS5 tables named them as separators (``FullTextTable``), so that a newer
    /// SQLite's tables kept them so, and ``TokenizerFolding`` was read with them.
    package static let tokenizerSeparators: [Unicode.Scalar] = (0x19B0...0x19C0).map { Unicode.Scalar($0)! }
        + [0x19C8, 0x19C9, 0x1CF2, 0x1CF3].map { Unicode.Scalar($0)! }
}
