import Foundation

/// Deterministic synthetic items of realistic length: 3–8 word titles, 20–60 word descriptions, 5 keywords.
/// Half of them fall in `com.bench.big`, the rest in ten smaller domains.
struct SyntheticItems {
    static let bigDomain = "com.bench.big"

    private var random: SplitMix64
    private let vocabulary: [String]

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        var words = SplitMix64(seed: 42)
        let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "che", "dra", "fen", "gor", "pla", "qui", "str", "zen"]
        vocabulary = (0..<20_000).map { _ in
            (0..<Int(2 + words.next() % 3)).map { _ in syllables[Int(words.next() % UInt64(syllables.count))] }.joined()
        }
    }

    /// The vocabulary's word of rank `rank` (0 is the most frequent).
    func word(rank: Int) -> String { vocabulary[rank % vocabulary.count] }

    /// A word from the vocabulary, skewed towards frequent words as natural text is.
    mutating func word() -> String {
        let a = random.next() % UInt64(vocabulary.count), b = random.next() % UInt64(vocabulary.count)
        return vocabulary[Int(min(a, b))]
    }

    mutating func words(_ range: ClosedRange<Int>) -> String {
        (0..<Int(UInt64(range.lowerBound) + random.next() % UInt64(range.count))).map { _ in word() }.joined(separator: " ")
    }

    /// The fields of item `index`: identifier, domain, title, description, keywords.
    mutating func item(_ index: Int) -> (id: String, domain: String, title: String, description: String, keywords: [String]) {
        let domain = index % 2 == 0 ? Self.bigDomain : "com.bench.d\(index % 10)"
        return ("item-\(index)", domain, words(3...8).capitalized, words(20...60), (0..<5).map { _ in word() })
    }
}

/// A small, fast, seeded pseudo-random generator.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
