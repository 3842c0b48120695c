/// The band of row identifiers an item gets from its ranking hint: hint 100 gets the lowest identifiers.
///
/// Identifiers are `(100 - hint) << 40 | sequence`, so walking rows in identifier order visits items with a
/// higher hint first, and items of equal hint in the order they were indexed.
package struct ItemPriority {
    private static let sequenceBits: Int64 = 40

    package let band: Int64

    package init(rankingHint: Int?) {
        band = Int64(100 - min(100, max(0, rankingHint ?? 0)))
    }

    package var firstIdentifier: Int64 { band << Self.sequenceBits + 1 }
    package var lastIdentifier: Int64 { (band + 1) << Self.sequenceBits - 1 }
}
