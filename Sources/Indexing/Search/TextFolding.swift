import Foundation

/// Splits text into words and folds them the way the index's tokenizer (FTS5 unicode61, diacritics removed)
/// does, so that Swift-side scoring agrees with what SQLite matched.
package enum TextFolding {
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
        var current = String.UnicodeScalarView()
        func emit() -> Bool {
            defer { current = String.UnicodeScalarView() }
            var folded = fold(String(current))
            return folded.isEmpty || folded.withUTF8(body)
        }
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                current.append(scalar)
            } else if !current.isEmpty, !emit() {
                return
            }
        }
        if !current.isEmpty { _ = emit() }
    }

    /// Calls `body` with each word of `text` as the index folds it and where it is in `text`, in UTF-16 code units,
    /// until it returns `false`; words past the first `maxBytes` of UTF-8 are not read, nor the word they cut.
    package static func forEachWordRange(in text: String, maxBytes: Int = .max, _ body: (_ range: Range<Int>, _ folded: String) -> Bool) {
        var current = String.UnicodeScalarView()
        var isASCIIWord = true
        var offset = 0, start = 0, bytes = 0
        func emit() -> Bool {
            defer { current = String.UnicodeScalarView(); isASCIIWord = true }
            let folded = isASCIIWord ? String(current).lowercased() : fold(String(current))
            return folded.isEmpty || body(start..<offset, folded)
        }
        for scalar in text.unicodeScalars {
            bytes += UTF8.width(scalar)
            if bytes > maxBytes { return }
            if isWordScalar(scalar) {
                if current.isEmpty { start = offset }
                current.append(scalar)
                isASCIIWord = isASCIIWord && scalar.isASCII
            } else if !current.isEmpty, !emit() {
                return
            }
            offset += UTF16.width(scalar)
        }
        if !current.isEmpty { _ = emit() }
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

    /// Lowercase, without diacritics: "École" becomes "ecole".
    static func fold(_ word: String) -> String {
        var folded = String.UnicodeScalarView()
        for scalar in word.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: folded.append(scalar)
            }
        }
        return String(folded)
    }

    private static func isASCIIWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }

    /// Letters to today's Unicode that unicode61 separates words with: its tables predate their change from
    /// spacing marks to letters (New Tai Lue vowel signs, two Vedic signs). Found by asking SQLite's tokenizer
    /// about every character (`SearchTermsTokenizerTests`); the index's tables name them as separators too
    /// (``FullTextTable``), so both sides agree whichever tables a newer SQLite carries.
    package static let tokenizerSeparators: [Unicode.Scalar] = (0x19B0...0x19C0).map { Unicode.Scalar($0)! }
        + [0x19C8, 0x19C9, 0x1CF2, 0x1CF3].map { Unicode.Scalar($0)! }

    /// The characters unicode61 treats as parts of words: letters, digits, private use and combining marks.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIIWordByte(UInt8(scalar.value)) }
        if (0x19B0...0x1CF3).contains(scalar.value), tokenizerSeparators.contains(scalar) { return false }
        return switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .privateUse, .nonspacingMark, .spacingMark:
            true
        default:
            false
        }
    }
}
