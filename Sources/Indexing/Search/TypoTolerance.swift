/// How many typos a typed word may hold and still find an indexed word: one from ``oneTypoFrom`` letters, two from
/// ``twoTyposFrom``, none in a word of ``disabledOn`` or a word holding a digit (numbers and codes match as
/// typed). A typo is one letter inserted, deleted, replaced, or two neighbours swapped; the first letter is taken
/// as typed. The `search.typos` key of `scheduler.yaml` sets it; ``standard`` is the default.
public struct TypoTolerance: Sendable, Hashable {
    /// Words of this many letters or more may hold one typo.
    public var oneTypoFrom: Int
    /// Words of this many letters or more may hold two typos.
    public var twoTyposFrom: Int
    /// Words matched only as typed, folded as the index folds words.
    public var disabledOn: Set<String>

    /// One typo from 5 letters, two from 9.
    public static let standard = TypoTolerance(oneTypoFrom: 5, twoTyposFrom: 9, disabledOn: [])
    /// No typo forgiven.
    public static let off = TypoTolerance(oneTypoFrom: .max, twoTyposFrom: .max, disabledOn: [])

    /// Typed words looked up for typos in one search, at most: the first ones long enough.
    public static let maxWordsCorrected = 4
    /// Indexed words a typed word may stand for, at most: the fewest typos first, then the shortest.
    public static let maxCorrectionsPerWord = 10
    /// Indexed words read for one typed word, at most (those starting with its first letter, in byte order).
    public static let maxWordsRead = 20_000

    /// `disabledOn` is folded here, as the index folds words; each word of it must be one word.
    public init(oneTypoFrom: Int, twoTyposFrom: Int, disabledOn: Set<String>) {
        self.oneTypoFrom = oneTypoFrom
        self.twoTyposFrom = twoTyposFrom
        self.disabledOn = Set(disabledOn.flatMap { SearchTerms($0).words })
    }

    /// How many typos `word` (folded) may hold.
    func allowedTypos(in word: String) -> Int {
        let letters = word.unicodeScalars.count
        guard letters >= oneTypoFrom, !disabledOn.contains(word), !word.unicodeScalars.contains(where: Self.isDigit) else { return 0 }
        return letters >= twoTyposFrom ? 2 : 1
    }

    /// Whether `scalar` is a digit or other number, in any script.
    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.numericType != nil
    }
}
