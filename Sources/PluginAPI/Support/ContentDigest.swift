/// A short, stable hexadecimal digest of bytes: two 64-bit FNV-1a variants side by side (128 bits). For telling content
/// that changed from content that did not (settings fingerprints, thumbnail ETags, a post's file, an item's content),
/// the same on every machine and run. Not a cryptographic hash: whoever writes the content can make two contents
/// collide, which only hides a change of their own content.
public enum ContentDigest {
    /// The digest of `text`'s UTF-8.
    public static func of(_ text: String) -> String {
        of(text.utf8)
    }

    /// The digest of `bytes`.
    public static func of(_ bytes: some Sequence<UInt8>) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in bytes {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 ^ (second >> 29)
        }
        return String(first, radix: 16) + String(second, radix: 16)
    }
}
