import Indexing
import Synchronization

/// Candidate rows that recent searches read, kept for the next searches. A search's candidates are the first
/// matches of its words in priority order, so searches for different words share many of them: the items at the top
/// of the order hold the common words. Reading a candidate row from SQLite (the seek and the copy of its text) was a
/// third of a never-repeated search's CPU (BENCHMARKS.md).
///
/// **When an entry holds.** Every entry is valid at the commit number it was read at, and is served only to searches
/// that read the same commit: every change to the rows and to the purged domains is a commit, whichever process
/// writes the file. The exceptions delete rows without one: the reclaim of a purged domain (its rows are gone from
/// searches already) and the expiry sweep (its rows have expired, by the sweeper's clock): a search takes no row from
/// here that expires within ``expiringSoon`` of its own clock.
///
/// **What an entry is.** A row as a search without a type filter reads it, with only the live-domain condition: its
/// candidate, expiration, domain, `access` and whether its version is current, or `nil` for a row that is gone
/// (deleted, or its domain purged). The search applies the expiration, its domains, its groups and its versions itself.
///
/// **Kept on a second read.** A row read once is only noted (``SeenRows``); read again while the note holds, it is kept.
/// Most rows a never-repeated search reads are the matches of rare words, which no other search reads soon: kept at
/// their first read, they pushed out the rows at the top of the order that the next searches need (BENCHMARKS.md,
/// 2026-11-29, 23:30).
///
/// **Bounded in bytes**, as ``bytes(of:)`` counts them. The oldest entries go first, a few at each store, so no search
/// pays for freeing many at once; entries of an earlier commit are never served, and go in turn (or when their row is
/// read again). What the lock lets go is freed after it.
final class CandidateRowCache: Sendable {
    /// A row's candidate, its expiration (seconds since 1970), its domain, its `access` as stored and whether its
    /// version is current: what a search takes from SQLite, and checks against its audience (``SearchAudience``) and
    /// versions (``SearchVersion``).
    typealias Entry = (candidate: CandidateRanking.Candidate, expiration: Double, domain: String, access: String?, isCurrentVersion: Bool)

    private struct Slot {
        var entry: Entry?
        var commitNumber: Int64
        var bytes: Int
    }

    private struct State {
        /// The latest commit a search read: readers of an earlier one neither take nor keep entries.
        var latestCommit: Int64 = -1
        var slots: [Int64: Slot] = [:]
        /// Ids in the order they were kept, the oldest at `head`.
        var order: [Int64] = []
        var head = 0
        var bytes = 0
        var seen: SeenRows

        /// Moves to `commitNumber` when it is later; whether a reader of it may use the cache.
        mutating func admits(_ commitNumber: Int64) -> Bool {
            latestCommit = max(latestCommit, commitNumber)
            return commitNumber == latestCommit
        }
    }

    /// Bytes held at most, as ``bytes(of:)`` counts them.
    let maxBytes: Int
    /// Seconds before its expiration when a row is read from the file again (see the type's comment).
    static let expiringSoon: Double = 60
    private let state: Mutex<State>

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
        state = Mutex(State(seen: SeenRows(forCacheOf: maxBytes)))
    }

    /// The entries of those `ids` kept at `commitNumber`: a row expiring after `expiringAfter` (seconds since 1970), or
    /// `nil` for a row that is gone. A row that expires sooner is left out, for the caller to read from the file.
    func entries(_ ids: [Int64], at commitNumber: Int64, expiringAfter: Double) -> [Int64: Entry?] {
        guard maxBytes > 0, !ids.isEmpty else { return [:] }
        return state.withLock { state in
            guard state.admits(commitNumber) else { return [:] }
            var found: [Int64: Entry?] = [:]
            found.reserveCapacity(ids.count)
            for id in ids {
                guard let slot = state.slots[id], slot.commitNumber == commitNumber else { continue }
                if let entry = slot.entry, entry.expiration <= expiringAfter { continue }
                found[id] = slot.entry
            }
            return found
        }
    }

    /// Keeps `entries`, read at `commitNumber` (nothing when a search read a later commit already).
    func store(_ entries: [Int64: Entry?], at commitNumber: Int64) {
        guard maxBytes > 0, !entries.isEmpty else { return }
        // What the lock lets go is returned, and freed here, after it.
        _ = state.withLock { state -> [Entry?] in
            guard state.admits(commitNumber) else { return [] }
            var discarded: [Entry?] = []
            for (id, entry) in entries {
                let bytes = Self.bytes(of: entry)
                // A huge row (a long description) would push out hundreds of others: it is read each time instead.
                guard bytes <= maxBytes / 64 else { continue }
                // A row held already (at an earlier commit, or left to the file as expiring soon) is kept again at once.
                guard state.slots[id] != nil || state.seen.wasSeen(id) else { continue }
                if let old = state.slots.updateValue(Slot(entry: entry, commitNumber: commitNumber, bytes: bytes), forKey: id) {
                    state.bytes -= old.bytes
                    discarded.append(old.entry)
                } else {
                    state.order.append(id)
                }
                state.bytes += bytes
            }
            while state.bytes > maxBytes, state.head < state.order.count {
                let id = state.order[state.head]
                state.head += 1
                if let slot = state.slots.removeValue(forKey: id) {
                    state.bytes -= slot.bytes
                    discarded.append(slot.entry)
                }
            }
            if state.head > 4_096, state.head > state.order.count / 2 {
                state.order.removeFirst(state.head)
                state.head = 0
            }
            return discarded
        }
    }

    /// What an entry counts against ``maxBytes``, as the allocator gives it out: its slot and key in the dictionary
    /// (twice over: a dictionary is between three quarters and three eighths full) and its place in the order, and for
    /// a row, its object, its fields' buffer and the strings too long to be held inline, each with its header. Counted
    /// so, the bound is what the process's memory grows by (BENCHMARKS.md, 2026-11-29, late).
    static func bytes(of entry: Entry?) -> Int {
        let slot = 2 * (MemoryLayout<Slot>.stride + MemoryLayout<Int64>.stride) + MemoryLayout<Int64>.stride
        guard let entry else { return slot }
        return slot + allocated(80) + allocated(32 + entry.candidate.packedBytes) + heapBytes(entry.candidate.page) + heapBytes(entry.domain)
            + (entry.access.map(heapBytes) ?? 0)
    }

    /// The bytes the allocator gives for `bytes`: 16 at a time, 16 more for its own header.
    private static func allocated(_ bytes: Int) -> Int { (bytes + 16 + 15) / 16 * 16 }

    /// The bytes `string` takes outside its value: none for up to 15 bytes of UTF-8, held inline.
    private static func heapBytes(_ string: String) -> Int {
        string.utf8.count <= 15 ? 0 : allocated(32 + string.utf8.count)
    }
}

/// The rows read lately, one bit each (a few ids share one): what ``CandidateRowCache`` keeps a row on. Forgotten all at
/// once when an eighth of the bits are set, so a row must be read twice within a window of several times as many
/// rows as the cache holds; an id that shares a bit with one read before is kept at its first read, as without the note.
struct SeenRows {
    /// Empty until the first row is noted: an index that never searches (a command, an import) allocates none.
    private var bits: [UInt64] = []
    private let words: Int
    private var marked = 0
    private let shift: Int

    /// A note of about one bit for every 32 bytes the cache may hold (512 KB for 128 MB: 0.4 % of it), from 4,096 bits
    /// to 8 MB of them (a cache of 2 GB or more: a row must then be read twice within 8 million reads).
    init(forCacheOf maxBytes: Int) {
        let bitCount = min(max(4_096, maxBytes / 32), 1 << 26)
        let log2 = Int.bitWidth - (bitCount - 1).leadingZeroBitCount
        shift = UInt64.bitWidth - log2
        words = (1 << log2) / 64
    }

    /// Whether `id` was read since the note was last forgotten; notes that it was.
    mutating func wasSeen(_ id: Int64) -> Bool {
        if bits.isEmpty { bits = [UInt64](repeating: 0, count: words) }
        let bit = Int((UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
        let mask = UInt64(1) << UInt64(bit % 64)
        if bits[bit / 64] & mask != 0 { return true }
        if marked >= bits.count * 8 {
            for index in bits.indices { bits[index] = 0 }
            marked = 0
        }
        bits[bit / 64] |= mask
        marked += 1
        return false
    }
}
