package import Foundation

/// How what people open lifts search results: an item's opens, and more its opens for the same query, multiply its
/// text score by at most ``maxLift``.
///
/// Opens fade by half every ``SearchQuery/popularityHalfLife`` (14 days unless set): `p` = the item's opens + 2 × its
/// opens for the query (folded as ``OpenTally/foldedQuery(_:)``; those are among the item's too, so they weigh three
/// times), each weighed `2^(−age / half-life)`. The score is
/// multiplied by `1 + 0.25 × p / (p + 5)`: five recent opens give half the lift, a flood never more than 25 %.
/// The lift applies to the score only, after the rules that decide tiers (typos, exact title, sequences, whole
/// words), so an exact title always beats a popular partial match; and 25 % is less than what separates two fields
/// (title 20, display name 8, keywords 4, description 1): popularity orders hits that match alike.
public struct Popularity: Sendable {
    /// The half-life of the service's default (`search.popularityHalfLife`).
    public static let standardHalfLife: Duration? = .seconds(14 * 86_400)
    /// The largest lift: a score is multiplied by at most `1 + maxLift`.
    static let maxLift = 0.25
    /// The weighed opens that give half of ``maxLift``.
    static let halfLiftOpens = 5.0
    /// What an open for the same query adds to its weight as an open of the item (counted in both): such an open
    /// weighs three times one from another query.
    static let queryWeight = 2.0
    /// Opens older than this many half-lives are not read: they would weigh under 0.4 %.
    static let halfLivesRead = 8.0

    /// Today, in days since 1970 (UTC).
    package let today: Int
    /// The first day whose opens are read.
    package let firstDay: Int
    /// The query whose own opens weigh more, folded; `nil` when it holds no word.
    package let query: String?
    private let halfLifeDays: Double

    /// The lift of `query` at `now`; `nil` when the query turns it off.
    package init?(query: SearchQuery, now: Date) {
        guard let halfLife = query.popularityHalfLife else { return nil }
        halfLifeDays = max(halfLife.seconds / 86_400, 1.0 / 24)
        today = UsageDay.of(now)
        firstDay = today - Int((halfLifeDays * Self.halfLivesRead).rounded(.up))
        self.query = OpenTally.foldedQuery(query.text)
    }

    /// Opens a store read for one candidate: on `day`, over every query or (`forQuery`) for this one.
    package struct Opens: Sendable {
        package var id: Int64
        package var forQuery: Bool
        package var day: Int
        package var opens: Int

        package init(id: Int64, forQuery: Bool, day: Int, opens: Int) {
            self.id = id
            self.forQuery = forQuery
            self.day = day
            self.opens = opens
        }
    }

    /// Each candidate's multiplier (1 to `1 + maxLift`), by id, from its opens; a candidate never opened is absent.
    package func lifts(_ opens: [Opens]) -> [Int64: Double] {
        var weighed: [Int64: Double] = [:]
        for open in opens where open.day >= firstDay && open.opens > 0 {
            let age = Double(max(0, today - open.day))
            weighed[open.id, default: 0] += Double(open.opens) * (open.forQuery ? Self.queryWeight : 1) * pow(2, -age / halfLifeDays)
        }
        return weighed.mapValues { 1 + Self.maxLift * $0 / ($0 + Self.halfLiftOpens) }
    }
}
