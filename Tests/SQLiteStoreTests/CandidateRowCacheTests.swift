@testable import Indexing
@testable import SQLiteStore
import Testing

/// The rows searches share (``CandidateRowCache``): kept on their second read, bounded, oldest out first, never served
/// across commits.
@Suite("Candidate rows shared between searches")
struct CandidateRowCacheTests {
    private func entry(_ id: Int64, description: String = "some words") -> CandidateRowCache.Entry {
        let candidate = CandidateRanking.Candidate(
            id: id, title: "title \(id)", displayName: nil, keywords: nil, authorNames: nil, contentDescription: description, rankingHint: nil,
            page: "page\(id)"
        )
        return (candidate, 1_000, "com.test", nil, true)
    }

    /// Stores `entries` as two searches that read them would: the second keeps them.
    private func readTwice(_ entries: [Int64: CandidateRowCache.Entry?], into cache: CandidateRowCache, at commitNumber: Int64) {
        cache.store(entries, at: commitNumber)
        cache.store(entries, at: commitNumber)
    }

    @Test func aRowIsKeptOnItsSecondReadWhileTheFirstIsRemembered() {
        let cache = CandidateRowCache(maxBytes: 1 << 20)
        cache.store([1: entry(1)], at: 1)
        #expect(cache.entries([1], at: 1, expiringAfter: 0).isEmpty, "read once")
        cache.store([1: entry(1)], at: 1)
        #expect(cache.entries([1], at: 1, expiringAfter: 0).count == 1, "read twice")
        // The note is one bit per 32 bytes of the bound (32,768 here), forgotten once an eighth of them are set: after
        // 10,000 other rows, row 2's first read is forgotten (unless a row read since shares its bit).
        // Under an eighth of the bits, the note holds: row 3 is kept on its second read after 2,000 others.
        cache.store([3: entry(3)], at: 1)
        for id in Int64(30_000)..<32_000 { cache.store([id: nil], at: 1) }
        cache.store([3: entry(3)], at: 1)
        #expect(cache.entries([3], at: 1, expiringAfter: 0).count == 1, "read again within the note's window")
        cache.store([2: entry(2)], at: 1)
        for id in Int64(10_000)..<20_000 { cache.store([id: nil], at: 1) }
        cache.store([2: entry(2)], at: 1)
        #expect(cache.entries([2], at: 1, expiringAfter: 0).isEmpty, "the first read was forgotten")
        cache.store([1: entry(1)], at: 2)
        #expect(cache.entries([1], at: 2, expiringAfter: 0).count == 1, "a kept row is kept again at a later commit, on one read")
    }

    @Test func theOldestEntriesGoFirstAndTheBoundHolds() {
        // Ids of four digits: every entry counts the same bytes.
        let one = CandidateRowCache.bytes(of: entry(1_000))
        let cache = CandidateRowCache(maxBytes: one * 100)
        for id in Int64(1_000)..<2_000 { readTwice([id: entry(id)], into: cache, at: 1) }
        let kept = cache.entries(Array(1_000..<2_000), at: 1, expiringAfter: 0)
        #expect(kept.count == 100, "as many as the bytes allow")
        #expect(Set(kept.keys) == Set(1_900..<2_000), "the newest")
    }

    @Test func entriesAreServedOnlyAtTheirCommit() {
        let cache = CandidateRowCache(maxBytes: 1 << 20)
        let gone: CandidateRowCache.Entry? = nil
        readTwice([1: entry(1), 2: gone], into: cache, at: 5)
        #expect(cache.entries([1, 2, 3], at: 5, expiringAfter: 0).count == 2)
        let found = cache.entries([1, 2], at: 5, expiringAfter: 0)
        #expect(found[2] != nil && found[2]! == nil, "a row that is gone is remembered as gone")
        #expect(cache.entries([1, 2], at: 6, expiringAfter: 0).isEmpty, "a later commit")
        readTwice([3: entry(3)], into: cache, at: 5)
        #expect(cache.entries([1, 3], at: 5, expiringAfter: 0).isEmpty, "an earlier reader neither takes nor keeps entries once a later commit was read")
        cache.store([1: entry(1)], at: 6)
        #expect(cache.entries([1], at: 6, expiringAfter: 0).count == 1)
    }

    /// A row kept takes what its words need, not the room appending them left (up to twice as much): at a million
    /// items that was a fifth of the service's memory. The allocator may hand out a block up to a few dozen bytes larger
    /// than asked (a free block too small to split), which the buffer counts as room.
    @Test func aKeptRowTakesTheRoomItsWordsNeed() {
        for words in [1, 10, 60, 200] {
            let description = (0..<words).map { "word\($0)" }.joined(separator: " ")
            let candidate = entry(1, description: description).candidate
            #expect(candidate.packedCapacity < candidate.packedBytes + 64, "\(words) words: \(candidate.packedBytes) bytes in \(candidate.packedCapacity)")
        }
    }

    @Test func aHugeRowIsNotKept() {
        let cache = CandidateRowCache(maxBytes: 64 * 1_024)
        readTwice([1: entry(1, description: String(repeating: "x", count: 2_000)), 2: entry(2)], into: cache, at: 1)
        #expect(Set(cache.entries([1, 2], at: 1, expiringAfter: 0).keys) == [2])
    }

    @Test func aRowExpiringSoonIsLeftForTheFile() {
        let cache = CandidateRowCache(maxBytes: 1 << 20)
        let gone: CandidateRowCache.Entry? = nil
        readTwice([1: entry(1), 2: gone], into: cache, at: 1)
        #expect(Set(cache.entries([1, 2], at: 1, expiringAfter: 999).keys) == [1, 2])
        #expect(Set(cache.entries([1, 2], at: 1, expiringAfter: 1_000).keys) == [2], "row 1 expires at 1,000: read it again; a gone row stays gone")
    }
}
