import Foundation
import HostSupport
import Indexing
import Logging
import PostgresNIO
import Store

/// How a search finds the first matches of its words in `id` order, in one column (``WordFrequencies/lookup(of:in:limit:)``).
enum MatchLookup: Equatable {
    /// `<words> @@ <match> ORDER BY id`: PostgreSQL's planner chooses, as without statistics.
    case plannerChooses
    /// `ts_match_vq(<words>, <match>) ORDER BY id`: the table walked in `id` order, each row checked, until enough match.
    case walk
    /// `<words> @@ <clauses> AND ts_match_vq(<words>, <match>) ORDER BY id + 0`: these clauses looked up through the GIN
    /// index, the whole match checked on each row they find (unless they are the whole match), the rows sorted.
    case lookUp(WordMatch)
}

/// How often the words of each `words_*` column occur, as PostgreSQL's own statistics tell it (`pg_stats`, gathered
/// by `ANALYZE` and autovacuum; the `v21-word-statistics` migration keeps 10,000 words a column): what a search needs to
/// choose how it finds its first matches, which PostgreSQL's planner cannot.
///
/// The GIN index answers a prefix (`'pla':*`) by merging the posting lists of every word it starts, whole, before any
/// other clause narrows them, a cost the planner does not count: `pla gor kafenr` cost what `pla` and `gor` cost
/// together (0.2 s at 1M items in the best fields), although `kafenr` alone finds a few thousand rows (10–20 ms looked
/// up alone, the others checked on its rows). And the planner estimates a clause checked by `ts_match_vq` at a third of
/// the rows, so it must be told to sort what a lookup finds rather than walk the table for it. So a search estimates
/// the three ways itself (``lookup(of:in:limit:)``), from the statistics and the costs measured here
/// (``LookupCosts``).
struct WordFrequencies: Sendable {
    /// The statistics of each column by name; a column without statistics (never analyzed) is absent.
    private let columns: [String: ColumnWords]
    /// How many rows `item` holds, as the statistics last counted them.
    private let rows: Double
    /// The share of the rows without `access` (those anyone may find), and of those in their current version.
    private let withoutAccess: Double, inCurrentVersion: Double

    /// No statistics: PostgreSQL's planner chooses every lookup.
    static let none = WordFrequencies(columns: [:], rows: 0, withoutAccess: 1, inCurrentVersion: 1)

    private init(columns: [String: ColumnWords], rows: Double, withoutAccess: Double, inCurrentVersion: Double) {
        (self.columns, self.rows, self.withoutAccess, self.inCurrentVersion) = (columns, rows, withoutAccess, inCurrentVersion)
    }

    /// The statistics of the `words_*` columns of `item` in the current schema (a column never analyzed is left out),
    /// and the shares of its rows the searches' own filters keep.
    static func read(_ client: PostgresClient, logger: Logger) async throws -> WordFrequencies {
        let counted = try await client.checkedQuery("SELECT reltuples::float8 FROM pg_class WHERE oid = 'item'::regclass", logger: logger)
        var rows = 0.0
        for try await count in counted.decode(Double.self) { rows = count }
        let statistics = try await client.checkedQuery(
            """
            SELECT attname::text, most_common_elems::text::text[], most_common_elem_freqs::float8[] FROM pg_stats
            WHERE schemaname = current_schema() AND tablename = 'item' AND attname IN ('words_all', 'words_best', 'words_names')
                AND most_common_elems IS NOT NULL
            """,
            logger: logger
        )
        var columns: [String: ColumnWords] = [:]
        for try await (column, words, frequencies) in statistics.decode((String, [String], [Double]).self) {
            columns[column] = ColumnWords(words: words, frequencies: frequencies)
        }
        let filters = try await client.checkedQuery(
            """
            SELECT attname::text, null_frac::float8, coalesce(most_common_vals::text::text[], '{}'), coalesce(most_common_freqs::float8[], '{}')
            FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'item' AND attname IN ('access', 'is_current_version')
            """,
            logger: logger
        )
        var (withoutAccess, inCurrentVersion) = (1.0, 1.0)
        for try await (column, nulls, values, shares) in filters.decode((String, Double, [String], [Double]).self) {
            if column == "access" { withoutAccess = nulls } else { inCurrentVersion = zip(values, shares).first { $0.0 == "t" }?.1 ?? 0 }
        }
        return WordFrequencies(columns: columns, rows: rows, withoutAccess: withoutAccess, inCurrentVersion: inCurrentVersion)
    }

    /// How to find the first `limit` rows in `id` order whose `column` holds `match` (and that the filters keep: the
    /// rows without `access` only, when `withoutAccessOnly`, those in their current version, when
    /// `currentVersionOnly`), whichever is estimated cheapest: walking the table until `limit` rows match (the clauses
    /// taken as independent, the matches as spread evenly), or looking up through the GIN index the clauses that pay
    /// for their postings, fewest rows first (each clause added while the rows it spares checking cost more than its
    /// postings). A clause none of whose words the statistics list is never walked for: it may be found nowhere.
    /// ``MatchLookup/plannerChooses`` when the column has no statistics.
    func lookup(of match: WordMatch?, in column: String, limit: Int, withoutAccessOnly: Bool = false, currentVersionOnly: Bool = false) -> MatchLookup {
        guard let match, let words = columns[column], rows > 0 else { return .plannerChooses }
        let clauses: [WordMatch] = if case .all(let clauses) = match { clauses } else { [match] }
        let estimated = clauses.map { (clause: $0, share: words.share($0), postings: words.postings($0) * rows, isListed: words.isListed($0)) }
            .sorted { $0.share < $1.share }
        var lookedUp: [WordMatch] = []
        var lookupCost = 0.0, found = rows
        for clause in estimated {
            let spared = found * (1 - clause.share) * LookupCosts.rowFound
            guard lookedUp.isEmpty || spared > clause.postings * LookupCosts.posting else { break }
            lookedUp.append(clause.clause)
            lookupCost += clause.postings * LookupCosts.posting
            found *= clause.share
        }
        lookupCost += found * LookupCosts.rowFound
        let kept = (withoutAccessOnly ? withoutAccess : 1) * (currentVersionOnly ? inCurrentVersion : 1)
        let matchingShare = estimated.reduce(kept) { $0 * ($1.isListed ? $1.share : 0) }
        let walkCost = min(rows, Double(limit) / max(matchingShare, .leastNonzeroMagnitude)) * LookupCosts.rowWalked
        if walkCost <= lookupCost { return .walk }
        return .lookUp(lookedUp.count == clauses.count ? match : lookedUp.count == 1 ? lookedUp[0] : .all(lookedUp))
    }
}

/// What each step of a lookup costs, in microseconds, measured at 1M items on this project's 2-core VM
/// (BENCHMARKS.md, 2026-12-01, morning): only their ratios matter.
enum LookupCosts {
    /// A row walked in `id` order and checked (a whole walk of 1M rows: 0.8–1.2 s).
    static let rowWalked = 1.2
    /// A posting the GIN index merges for a clause (`pla gor kafenr` in the best fields: about 600,000 in 0.19 s).
    static let posting = 0.3
    /// A row a lookup finds: read from the heap through the bitmap, checked whole, sorted (28,000 in 0.13 s).
    static let rowFound = 4.5
}

/// A column's most common words and how many rows hold each, as a share of the rows, sorted by their bytes so a
/// prefix's words are one range.
private struct ColumnWords: Sendable {
    private let words: [[UInt8]]
    /// `shareSums[i]` is the sum of the shares of `words[0..<i]`: the postings of a range of words, per row.
    private let shareSums: [Double]
    /// `logAbsences[i]` is the sum of `log(1 - share)` over `words[0..<i]`: a row holds none of a range of words with
    /// the product of their absences (the words taken as independent).
    private let logAbsences: [Double]
    /// The share assumed for a word not listed: half the smallest listed one, at most 0.5 %, as PostgreSQL's planner
    /// assumes.
    private let unlisted: Double

    /// `frequencies` as `pg_stats` gives them: one per word, then the smallest, the largest (and, in some versions,
    /// the share of empty values).
    init(words: [String], frequencies: [Double]) {
        let listed = zip(words.map { Array($0.utf8) }, frequencies).sorted { $0.0.lexicographicallyPrecedes($1.0) }
        self.words = listed.map(\.0)
        var sums = [0.0], logs = [0.0]
        sums.reserveCapacity(listed.count + 1)
        logs.reserveCapacity(listed.count + 1)
        for (_, share) in listed {
            sums.append(sums[sums.count - 1] + share)
            logs.append(logs[logs.count - 1] + Self.logAbsence(share))
        }
        (shareSums, logAbsences) = (sums, logs)
        let smallest = frequencies.count > words.count ? frequencies[words.count] : (listed.map(\.1).min() ?? 0)
        unlisted = min(smallest / 2, 0.005)
    }

    /// `log(1 - share)`, finite: a word every row holds would make the sums infinite and their differences not numbers.
    private static func logAbsence(_ share: Double) -> Double {
        log1p(-min(max(share, 0), 0.999_999))
    }

    /// The share of the rows estimated to hold `match`: for a prefix, those holding any of its listed words; for a
    /// whole word, its own; for either of several, any of them; for all of several, the smallest.
    func share(_ match: WordMatch) -> Double {
        switch match {
        case .prefix, .whole:
            guard let range = listedRange(match) else { return unlisted }
            return -expm1(logAbsences[range.upperBound] - logAbsences[range.lowerBound])
        case .any(let matches): return -expm1(matches.reduce(0) { $0 + Self.logAbsence(share($1)) })
        case .all(let matches): return matches.map(share).min() ?? 1
        }
    }

    /// The postings the GIN index reads for `match`, per row of the table: those of every word it names or starts.
    func postings(_ match: WordMatch) -> Double {
        switch match {
        case .prefix, .whole:
            guard let range = listedRange(match) else { return unlisted }
            return shareSums[range.upperBound] - shareSums[range.lowerBound]
        case .any(let matches), .all(let matches): return matches.reduce(0) { $0 + postings($1) }
        }
    }

    /// Whether the statistics list a word of `match`: else it may be found nowhere.
    func isListed(_ match: WordMatch) -> Bool {
        switch match {
        case .prefix, .whole: listedRange(match) != nil
        case .any(let matches), .all(let matches): matches.contains(where: isListed)
        }
    }

    /// The listed words a prefix starts, or the one word a whole word is; `nil` when none is listed.
    private func listedRange(_ match: WordMatch) -> Range<Int>? {
        let range: Range<Int>
        switch match {
        case .prefix(let text):
            let prefix = Array(text.utf8)
            let start = firstIndex { !$0.lexicographicallyPrecedes(prefix) }
            range = start..<firstIndex { !$0.lexicographicallyPrecedes(prefix) && !$0.starts(with: prefix) }
        case .whole(let text):
            let word = Array(text.utf8)
            let start = firstIndex { !$0.lexicographicallyPrecedes(word) }
            range = start..<(start < words.count && words[start] == word ? start + 1 : start)
        case .any, .all: return nil
        }
        return range.isEmpty ? nil : range
    }

    /// The first index of `words` whose word satisfies `isPast` (which must hold for every word after one it holds for),
    /// or `words.count`.
    private func firstIndex(where isPast: ([UInt8]) -> Bool) -> Int {
        var (low, high) = (0, words.count)
        while low < high {
            let middle = (low + high) / 2
            if isPast(words[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// The statistics searches read: read by the first search, then again by the first one after they are ``lifetime``
/// old (an `ANALYZE` changes them rarely), under ``StoreDeadline/sharedRead``; searches that arrive while one reads use
/// the statistics read before (``PeriodicReading``). After a failed read, the planner chooses every lookup until
/// ``lifetime`` has passed again.
final class WordFrequencyReads: Sendable {
    /// How long statistics are used before they are read again.
    static let lifetime: Duration = .seconds(300)

    private let reading = PeriodicReading<WordFrequencies>(maxAge: lifetime)
    private let client: PostgresClient
    private let logger: Logger

    init(client: PostgresClient, logger: Logger) {
        (self.client, self.logger) = (client, logger)
    }

    /// The statistics to search by.
    func current() async -> WordFrequencies {
        let (client, logger) = (client, logger)
        // Only a cancelled search's read is not kept (its end is not the statistics'): the next search reads.
        return (try? await reading.value {
            do {
                return try await StoreDeadline.sharedRead.run { try await WordFrequencies.read(client, logger: logger) }
            } catch where !Task.isCancelled {
                logger.warning("could not read PostgreSQL's word statistics (\(error)); the planner chooses every search's lookups for \(Self.lifetime)")
                return .none
            }
        }) ?? .none
    }
}
