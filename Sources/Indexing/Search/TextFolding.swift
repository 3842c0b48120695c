import Foundation

/// Splits text into words and folds them the way the index's tokenizer (FTS5 unicode61, diacritics removed)
/// does, so that Swift-side scoring agrees with what SQLite matched.
package enum TextFolding {
    /// Calls `body` with the UTF-8 bytes of each folded word of `text`, in order, until it returns `false`.
    /// The bytes are only valid during the call.
    package static func forEachWord(in text: some StringProtocol, _ body: ([UInt8]) -> Bool) {
        var word: [UInt8] = []
        word.reserveCapacity(32)
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: classify and lowercase byte by byte, without building strings.
            for byte in text.utf8 {
                if isASCIIWordByte(byte) {
                    word.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
                } else if !word.isEmpty {
                    guard body(word) else { return }
                    word.removeAll(keepingCapacity: true)
                }
            }
            if !word.isEmpty { _ = body(word) }
            return
        }
        var current = String.UnicodeScalarView()
        func emit() -> Bool {
            defer { current = String.UnicodeScalarView() }
            let folded = fold(String(current))
            return folded.isEmpty || body(Array(folded.utf8))
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
    static let tokenizerSeparators: [Unicode.Scalar] = (0x19B0...0x19C0).map { Unicode.Scalar($0)! }
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
