/// MurmurHash3, x86 32-bit variant (Austin Appleby's reference `MurmurHash3_x86_32`): the hash flagd's
/// `fractional` buckets by, so a unit lands in the variant flagd would give it.
public enum MurmurHash3 {
    /// The 32-bit hash of `bytes` with `seed`, as an unsigned number.
    public static func x86_32<Bytes: Collection<UInt8>>(_ bytes: Bytes, seed: UInt32 = 0) -> UInt32 {
        let c1: UInt32 = 0xCC9E_2D51, c2: UInt32 = 0x1B87_3593
        var hash = seed
        var block: UInt32 = 0, filled = 0, length = 0
        for byte in bytes {
            block |= UInt32(byte) << (8 * UInt32(filled))
            filled += 1
            length += 1
            if filled == 4 {
                hash ^= mix(block, c1, c2)
                hash = (hash << 13 | hash >> 19) &* 5 &+ 0xE654_6B64
                block = 0
                filled = 0
            }
        }
        if filled > 0 { hash ^= mix(block, c1, c2) }
        hash ^= UInt32(truncatingIfNeeded: length)
        hash ^= hash >> 16
        hash = hash &* 0x85EB_CA6B
        hash ^= hash >> 13
        hash = hash &* 0xC2B2_AE35
        hash ^= hash >> 16
        return hash
    }

    private static func mix(_ block: UInt32, _ c1: UInt32, _ c2: UInt32) -> UInt32 {
        let k = block &* c1
        return (k << 15 | k >> 17) &* c2
    }
}
