import Flagd
import Testing

/// MurmurHash3 x86 32-bit against the reference implementation's published vectors, and the keys flagd-testbed chose
/// so their hashes sit on the edges `fractional` must get right.
@Suite struct MurmurHash3Tests {
    @Test(arguments: [
        ("", UInt32(0), UInt32(0)),
        ("", 1, 0x514E_28B7),
        ("", 0xFFFF_FFFF, 0x81F1_6F39),
        ("test", 0, 0xBA6B_D213),
        ("Hello, world!", 0, 0xC036_3E43),
        ("Hello, world!", 1234, 0xFAF6_CDB3),
        ("The quick brown fox jumps over the lazy dog", 0, 0x2E4F_F723),
        ("aaaa", 0x9747_B28C, 0x5A97_808A),
        ("abc", 0, 0xB3DD_93FA),
    ])
    func referenceVectors(text: String, seed: UInt32, hash: UInt32) {
        #expect(MurmurHash3.x86_32(text.utf8, seed: seed) == hash)
    }

    /// The testbed's keys hash to 0, 1, 2³¹−1, 2³¹ and 2³²−1; with two buckets of 50, `(hash × 100) >> 32` puts the
    /// first three below 50 and the last two at 50 or above.
    @Test(arguments: [
        ("ejOoVL", UInt32(0), "lower"), ("bY9fO-", 1, "lower"), ("SI7p-", 0x7FFF_FFFF, "lower"),
        ("6LvT0", 0x8000_0000, "upper"), ("ceQdGm", 0xFFFF_FFFF, "upper"),
    ])
    func testbedEdgeKeys(key: String, hash: UInt32, variant: String) throws {
        #expect(MurmurHash3.x86_32(key.utf8) == hash)
        let definitions = try FlagdDefinitions(parsing: """
            {"flags": {"edge": {"state": "ENABLED", "variants": {"lower": 1, "upper": 2}, "defaultVariant": "lower",
              "targeting": {"fractional": [{"var": "targetingKey"}, ["lower", 50], ["upper", 50]]}}}}
            """)
        #expect(definitions.resolve("edge", targetingKey: key).variant == variant)
    }
}
