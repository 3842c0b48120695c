@testable import Indexing
import Testing

/// Words read from UTF-8 bytes (a candidate's fields) are the words of the string those bytes decode to.
@Suite("Folding words from bytes")
struct TextFoldingTests {
    private func words(ofString text: String) -> [[UInt8]] {
        var words: [[UInt8]] = []
        TextFolding.forEachWord(in: text) { words.append(Array($0)); return true }
        return words
    }

    private func words(ofBytes bytes: [UInt8]) -> [[UInt8]] {
        var words: [[UInt8]] = []
        bytes.withUnsafeBufferPointer { buffer in TextFolding.forEachWord(inUTF8: buffer) { words.append(Array($0)); return true } }
        return words
    }

    /// Ill-formed sequences of every kind (cut short, overlong, surrogates, bytes that never start one) read as
    /// `String(decoding:as:)` reads them: one U+FFFD for each maximal part, whatever surrounds them.
    @Test func illFormedBytesReadAsAStringDecodesThem() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [
            Array("Délais".utf8), Array(" ".utf8), Array("ka".utf8), Array("가".utf8), Array("𝒳".utf8), Array("ß".utf8), [0xE2, 0x82], [0xF0, 0x9F, 0x98],
            [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF], [0x80], [0xF4, 0x90, 0x80, 0x80], [0xE0, 0x80, 0x80], Array("\u{0301}".utf8), [0x2D],
        ]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...12, using: &generator)).flatMap { _ in pieces.randomElement(using: &generator)! }
            #expect(words(ofBytes: bytes) == words(ofString: String(decoding: bytes, as: UTF8.self)), "\(bytes)")
        }
    }

    @Test func wellFormedTextReadsTheSameFromItsBytes() {
        for text in ["Délais de livraison", "İstanbul ΣΊΣΥΦΟΣ straße", "日本語のテキスト 가나다", "a\u{0301}b e\u{301}", "ASCII only, 3.4.0"] {
            #expect(words(ofBytes: Array(text.utf8)) == words(ofString: text), "\(text)")
        }
    }
}
