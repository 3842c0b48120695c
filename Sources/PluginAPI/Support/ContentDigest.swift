/// A short, stable hexadecimal digest of bytes: two 64-bit FNV-1a variants side by side (128 bits). For telling content
/// that changed from content that did not (settings fingerprints, thumbnail ETags, a post's file, an item's content),
/// the same on every machine and run. Not a cryptographic hash: whoever writes the content can make two contents
/// collide, which only hides a change of their own content.
public enum ContentDigest {
    /// The digest of `text`'s UTF-8.
    public static func of(_ text: String) -> String {
        var digest = Accumulator()
        digest.add(text)
        return digest.text
    }

    /// The digest of `bytes`.
    public static func of(_ bytes: some Sequence<UInt8>) -> String {
        var digest = Accumulator()
        digest.add(bytes)
        return digest.text
    }

    /// A digest taken piece by piece: the same as ``of(_:)`` of the pieces' bytes one after the other, without
    /// joining them first (the pass digests 100,000 units' plans a tick).
    public struct Accumulator: Sendable {
        private var first: UInt64 = 0xcbf2_9ce4_8422_2325
        private var second: UInt64 = 0x8422_2325_cbf2_9ce4

        public init() {}

        public mutating func add(_ bytes: some Sequence<UInt8>) {
            let contiguous: Void? = bytes.withContiguousStorageIfAvailable { buffer in
                for byte in buffer { add(byte) }
            }
            if contiguous == nil {
                for byte in bytes { add(byte) }
            }
        }

        /// Adds `text`'s UTF-8, read in place: called from other modules, the generic ``add(_:)-(Sequence<UInt8>)``
        /// walks a string byte by byte through protocol witnesses, ten times slower (the pass digests 100,000 plans
        /// a tick).
        public mutating func add(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                for byte in bytes { add(byte) }
            }
        }

        /// Adds `text`'s UTF-8 and a separator no text holds, so `["ab", "c"]` and `["a", "bc"]` differ.
        public mutating func add(field text: String) {
            add(text)
            add(0xff)
        }

        private mutating func add(_ byte: UInt8) {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 ^ (second >> 29)
        }

        public var text: String { String(first, radix: 16) + String(second, radix: 16) }
    }
}
