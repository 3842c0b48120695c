import PluginAPI

/// Sticky, documented assignment of units to buckets 0–9999.
///
/// `bucket(s)` = `fmix64(FNV-1a-64(UTF-8 of s)) mod 10000`, where FNV-1a-64 starts from 0xcbf29ce484222325
/// with prime 0x100000001b3 and fmix64 is MurmurHash3's finalizer (it spreads FNV's weak low bits). The
/// hashed strings are `gate/<gate>/<unit>` for rollouts and `experiment/<salt or name>/<unit>` for variants,
/// so a rollout change never reshuffles variants and each experiment shuffles on its own.
public enum Bucketing {
    public static let bucketCount = 10_000

    public static func bucket(_ text: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash &*= 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return Int(hash % UInt64(bucketCount))
    }

    /// The bucket of `unit` for the rollout of `gate`.
    public static func rolloutBucket(gate: String, unit: String) -> Int {
        bucket("gate/\(gate)/\(unit)")
    }

    /// The bucket of `unit` for the offset its source's `jitter` gives its due instants.
    public static func jitterBucket(unit: String) -> Int {
        bucket("jitter/\(unit)")
    }

    /// The bucket of `unit` for the variant assignment of an experiment (its salt, or its name).
    public static func variantBucket(experiment: String, unit: String) -> Int {
        bucket("experiment/\(experiment)/\(unit)")
    }

    /// A short, stable hexadecimal digest of `text`, for fingerprints (``ContentDigest``).
    public static func digest(_ text: String) -> String {
        ContentDigest.of(text)
    }

    /// A short, stable hexadecimal digest of `bytes`, for fingerprints (``ContentDigest``).
    public static func digest(_ bytes: some Sequence<UInt8>) -> String {
        ContentDigest.of(bytes)
    }
}
