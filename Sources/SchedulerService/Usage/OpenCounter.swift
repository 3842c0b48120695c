import Foundation
public import HostSupport
public import Indexing

/// Counts the results people open, never the people: what `/open` asks before it redirects.
///
/// A client reaches this actor as a key (its IPv4 address, or the /64 network of its IPv6 one, ``ClientKey``), kept
/// only as a hash salted with a secret drawn at start, in memory only: for the rate limit of a minute (past it,
/// ``Admission/limited``), and to count one open per client, item and hour. Counts wait in memory for ``drain()``, which the writer calls every few seconds, so an open never waits
/// for the store. Every table is bounded: when one is full, an open is still redirected but not counted.
public actor OpenCounter {
    /// What an open may do.
    public enum Admission: Sendable, Equatable {
        /// Redirect, and count the open.
        case counted
        /// Redirect without counting: the client opened the item within the hour, or a table is full.
        case uncounted
        /// Answer 429: the client made more opens this minute than allowed.
        case limited
    }

    /// How many distinct clients, client–item pairs or pending counts are held at most.
    public static let maxEntries = 100_000

    private let clock: any WallClock
    private let clients = ClientHash()
    /// The minute of `opensThisMinute`, and each client's opens in it.
    private var minute = Int.min
    private var opensThisMinute: [Int: Int] = [:]
    /// The hour of `openedThisHour`, and the client–item pairs counted in it.
    private var hour = Int.min
    private var openedThisHour: Set<Int> = []
    private var pending: [OpenTally.Key: Int] = [:]

    /// - Parameter clock: tells the minute, hour and day of each open.
    public init(clock: any WallClock = SystemWallClock()) {
        self.clock = clock
    }

    /// Decides an open of `identifier` by `client` (``ClientKey``; `nil` when unknown), searched as `query` (folded),
    /// when a client may make `rateLimit` opens a minute (`service.openRateLimit`), and counts it when it should be.
    public func admit(identifier: String, query: String?, client: String?, rateLimit: Int) -> Admission {
        let now = clock.now()
        let seconds = Int(now.timeIntervalSince1970.rounded(.down))
        let clientKey = clients.hash(client ?? "")
        if seconds / 60 != minute {
            minute = seconds / 60
            opensThisMinute = [:]
        }
        guard let opens = opensThisMinute[clientKey] ?? (opensThisMinute.count < Self.maxEntries ? 0 : nil) else { return .uncounted }
        guard opens < rateLimit else { return .limited }
        opensThisMinute[clientKey] = opens + 1
        if seconds / 3600 != hour {
            hour = seconds / 3600
            openedThisHour = []
        }
        let pair = clients.hash(client ?? "", identifier)
        guard !openedThisHour.contains(pair) else { return .uncounted }
        let day = UsageDay.of(now)
        let keys = [OpenTally.Key(day: day, identifier: identifier, query: nil)]
            + (query.map { [OpenTally.Key(day: day, identifier: identifier, query: $0)] } ?? [])
        guard openedThisHour.count < Self.maxEntries, pending.count + keys.count <= Self.maxEntries || keys.allSatisfy({ pending[$0] != nil }) else {
            return .uncounted
        }
        openedThisHour.insert(pair)
        for key in keys { pending[key, default: 0] += 1 }
        return .counted
    }

    /// The counts not yet written, which the caller now owns.
    public func drain() -> [OpenTally] {
        defer { pending = [:] }
        return pending.map { OpenTally(key: $0.key, opens: $0.value) }
    }

    /// Takes back `tallies` a write failed to store, as far as the table has room, to try them again; returns how
    /// many opens did not fit.
    public func restore(_ tallies: [OpenTally]) -> Int {
        var dropped = 0
        for tally in tallies {
            if pending[tally.key] != nil || pending.count < Self.maxEntries {
                pending[tally.key, default: 0] += tally.opens
            } else {
                dropped += tally.opens
            }
        }
        return dropped
    }
}
