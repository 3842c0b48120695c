import Indexing
import Synchronization

/// Candidate rows that recent searches read, kept for the next searches. A search's candidates are the first
/// matches of its words in priority order, so searches for different words share many of them: the items at the top
/// of the order hold the common words. Reading a candidate row from SQLite (the seek and the strings) was a third of
/// a never-repeated search's CPU (BENCHMARKS.md).
///
/// **When an entry holds.** Every entry is valid at one commit number. The cache empties when a search reads a later
/// commit: every change to the rows and to the purged domains is a commit, whichever process writes the file. The
/// exceptions delete rows without one: the reclaim of a purged domain (its rows are gone from searches already) and
/// the expiry sweep (its rows have expired, by the sweeper's clock): a search takes no row from here that expires
/// within ``expiringSoon`` of its own clock.
///
/// **What an entry is.** A row as a search without a domain or type filter reads it, with only the live-domain
/// condition: its candidate and expiration, or `nil` for a row that is gone (deleted, or its domain purged). The
/// search applies the expiration itself.
///
/// **Bounded in bytes of text.** Two generations stand in for least-recently-used order: an entry found in the older
/// one moves to the newer one, and when the newer one is full it becomes the older one and the oldest entries go
/// (freed after the lock is let go).
final class CandidateRowCache: Sendable {
    /// A row's candidate and its expiration (seconds since 1970); what a search takes from SQLite.
    typealias Entry = (candidate: CandidateRanking.Candidate, expiration: Double)

    private struct State {
        /// The commit the entries hold at; -1 before the first search.
        var commitNumber: Int64 = -1
        var newer: [Int64: Entry?] = [:]
        var older: [Int64: Entry?] = [:]
        var newerBytes = 0
        /// Entries let go under the lock, freed by the caller after it (freeing thousands of strings takes
        /// milliseconds, which other searches would wait for).
        var discarded: [[Int64: Entry?]] = []

        /// Empties the cache for `commitNumber` when it is later than the entries'; whether the entries hold at it.
        mutating func holds(_ commitNumber: Int64) -> Bool {
            if commitNumber > self.commitNumber {
                self.commitNumber = commitNumber
                discarded += [newer, older]
                newer = [:]
                older = [:]
                newerBytes = 0
            }
            return commitNumber == self.commitNumber
        }

        mutating func insert(_ id: Int64, _ entry: Entry?, maxBytes: Int) {
            let bytes = CandidateRowCache.bytes(of: entry)
            // A huge row (a long description) would push out hundreds of others: it is read each time instead.
            guard newer[id] == nil, bytes <= maxBytes / 64 else { return }
            if newerBytes + bytes > maxBytes / 2 {
                discarded.append(older)
                older = newer
                // As large as the last: filling it again never rehashes under the lock.
                newer = Dictionary(minimumCapacity: older.count)
                newerBytes = 0
            }
            newer[id] = .some(entry)
            newerBytes += bytes
        }

        /// What was let go since the last call.
        mutating func takeDiscarded() -> [[Int64: Entry?]] {
            defer { discarded = [] }
            return discarded
        }
    }

    /// Bytes held at most (both generations), as ``bytes(of:)`` counts them.
    let maxBytes: Int
    /// Seconds before its expiration when a row is read from the file again (see the type's comment).
    static let expiringSoon: Double = 60
    private let state = Mutex(State())

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// The entries of those `ids` held at `commitNumber`: a row, or `nil` for a row that is gone. Empty when the
    /// cache holds another commit (an older read's), or holds nothing.
    func entries(_ ids: [Int64], at commitNumber: Int64) -> [Int64: Entry?] {
        guard maxBytes > 0, !ids.isEmpty else { return [:] }
        // What the lock let go is returned, and freed here, after it.
        let (found, _) = state.withLock { state -> ([Int64: Entry?], [[Int64: Entry?]]) in
            guard state.holds(commitNumber) else { return ([:], state.takeDiscarded()) }
            var found: [Int64: Entry?] = [:]
            for id in ids {
                if let entry = state.newer[id] {
                    found[id] = entry
                } else if let entry = state.older.removeValue(forKey: id) {
                    found[id] = entry
                    state.insert(id, entry, maxBytes: maxBytes)
                }
            }
            return (found, state.takeDiscarded())
        }
        return found
    }

    /// Keeps `entries`, read at `commitNumber` (nothing when the cache holds a later commit).
    func store(_ entries: [Int64: Entry?], at commitNumber: Int64) {
        guard maxBytes > 0, !entries.isEmpty else { return }
        // What the lock let go is returned, and freed here, after it.
        _ = state.withLock { state in
            if state.holds(commitNumber) {
                for (id, entry) in entries { state.insert(id, entry, maxBytes: maxBytes) }
            }
            return state.takeDiscarded()
        }
    }

    /// What an entry counts against ``maxBytes``: its slot in a dictionary (with the room a dictionary keeps free), and
    /// for a row, its object and each string's text and header.
    static func bytes(of entry: Entry?) -> Int {
        guard let candidate = entry?.candidate else { return 64 }
        return 64 + 96 + [candidate.title, candidate.displayName, candidate.keywords, candidate.authorNames, candidate.contentDescription, candidate.page]
            .reduce(0) { $0 + ($1.map { 32 + $0.utf8.count } ?? 0) }
    }
}
