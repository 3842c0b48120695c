public import Foundation
public import HostSupport
public import Indexing

/// Counts the queries people search for, as they meant them: a search box sends a query at every keystroke (`c`,
/// `ch`, … `cheese boards`), so a client's searches that extend or shorten one another within ``typingPause`` are
/// one search, counted as the last of them once the client pauses or searches for something else.
///
/// Clients are kept as in ``OpenCounter`` (a salted hash, in memory only). At most ``maxQueriesPerDay`` distinct
/// queries are counted a day by one service (more only count in `scheduler_searches_total`), so invented queries
/// cannot grow the counts without bound; every table is bounded.
public actor SearchCounter {
    /// How long a client may pause and still be typing the same search.
    public static let typingPause: TimeInterval = 10
    /// The most distinct queries counted a day.
    public static let maxQueriesPerDay = 100_000
    /// The most clients followed at once; past it a search is counted on its own.
    public static let maxClients = 100_000

    private struct Typing {
        var query: String
        var found: Bool
        var at: Date
    }

    private let clock: any WallClock
    private let clients = ClientHash()
    private var typing: [Int: Typing] = [:]
    private var pending: [SearchTally] = []
    /// The day of `queriesToday`, and the queries counted that day.
    private var day = Int.min
    private var queriesToday: Set<[UInt8]> = []

    public init(clock: any WallClock = SystemWallClock()) {
        self.clock = clock
    }

    /// A search for `text` by `client` (``ClientKey``; `nil` when unknown), which found something or not.
    public func record(_ text: String, found: Bool, client: String?) {
        guard let query = OpenTally.foldedQuery(text) else { return }
        let now = clock.now()
        let key = clients.hash(client ?? "")
        let search = Typing(query: query, found: found, at: now)
        if let previous = typing[key] {
            let continues = now.timeIntervalSince(previous.at) < Self.typingPause
                && (query.utf8.starts(with: previous.query.utf8) || previous.query.utf8.starts(with: query.utf8))
            if !continues { count(previous) }
            typing[key] = search
        } else if typing.count < Self.maxClients {
            typing[key] = search
        } else {
            count(search)
        }
    }

    /// The counts of the searches people finished typing (all of them when `everything`, at shutdown), which the
    /// caller now owns.
    public func drain(everything: Bool = false) -> [SearchTally] {
        let now = clock.now()
        for (key, search) in typing where everything || now.timeIntervalSince(search.at) >= Self.typingPause {
            count(search)
            typing[key] = nil
        }
        defer { pending = [] }
        return SearchTally.merged(pending)
    }

    private func count(_ search: Typing) {
        let searchDay = UsageDay.of(search.at)
        if searchDay > day {
            day = searchDay
            queriesToday = []
        }
        let bytes = Array(search.query.utf8)
        guard queriesToday.contains(bytes) || queriesToday.count < Self.maxQueriesPerDay else { return }
        queriesToday.insert(bytes)
        pending.append(SearchTally(day: searchDay, query: search.query, searches: 1, withoutHits: search.found ? 0 : 1))
        if pending.count >= Self.maxClients { pending = SearchTally.merged(pending) }
    }
}
