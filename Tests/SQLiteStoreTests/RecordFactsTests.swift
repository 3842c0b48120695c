@testable import SQLiteStore
import Testing

/// What searches learn of recorded rows (``RecordFacts``): known only at the commit they were learned at, never for a
/// row about to expire, never longer-lived than the row, gone rows remembered as gone, and bounded.
@Suite("Facts of recorded rows")
struct RecordFactsTests {
    private func row(_ domain: String = "com.test", access: String? = nil, expiration: Double = 10_000, current: Bool = true) -> RecordFacts.Learned.Row {
        (expiration, domain, access, current)
    }

    @Test func aFactIsKnownOnlyAtTheCommitItWasLearnedAt() {
        let facts = RecordFacts(count: 10)
        #expect(facts.known([1], at: 5, expiringAfter: 0).facts == [nil], "nothing learned yet")
        facts.learn([.init(record: 1, row: row()), .init(record: 2, row: nil)], at: 5)
        let known = facts.known([1, 2, 3], at: 5, expiringAfter: 0)
        #expect(known.facts.map { $0 != nil } == [true, true, false])
        #expect(known.facts[1]?.expiration == 0, "a gone row is known as gone")
        #expect(facts.known([1, 2], at: 6, expiringAfter: 0).facts == [nil, nil], "a later commit knows nothing yet")
        #expect(facts.known([1], at: 5, expiringAfter: 0).facts == [nil], "once a later commit was read, an earlier reader gets nothing")
        facts.learn([.init(record: 1, row: row("com.later"))], at: 6)
        facts.learn([.init(record: 1, row: nil)], at: 5)
        let later = facts.known([1], at: 6, expiringAfter: 0)
        #expect(later.facts[0].map(later.domain(of:)) == "com.later", "nor does it teach anything: what commit 6 learned holds")
    }

    @Test func aRowExpiringSoonIsNotKnownAndNoFactOutlivesItsRow() throws {
        let facts = RecordFacts(count: 4)
        facts.learn([.init(record: 0, row: row(expiration: 1_000.9)), .init(record: 1, row: row(expiration: 0.5)), .init(record: 2, row: row(expiration: 1e300))], at: 1)
        let fact = try #require(facts.known([0], at: 1, expiringAfter: 900).facts[0])
        #expect(fact.expiration == 1_000, "rounded down")
        #expect(facts.known([0], at: 1, expiringAfter: 1_000).facts == [nil], "expiring within the search's margin: read from SQLite")
        #expect(facts.known([1], at: 1, expiringAfter: 0).facts == [nil], "an expired row is never known as one that may be returned")
        #expect(facts.known([2], at: 1, expiringAfter: 1e9).facts[0]?.expiration == UInt32.max, "far expirations are held as the furthest")
    }

    @Test func domainsAccessAndVersionsReadBackAsLearned() throws {
        let facts = RecordFacts(count: 3)
        facts.learn([
            .init(record: 0, row: row("com.a", access: #"["staff"]"#, current: false)),
            .init(record: 1, row: row("com.b")),
            .init(record: 2, row: row("com.a", access: #"["staff"]"#)),
        ], at: 1)
        let known = facts.known([0, 1, 2], at: 1, expiringAfter: 0)
        let read = try known.facts.map { fact in
            let fact = try #require(fact)
            return "\(known.domain(of: fact)) \(known.access(of: fact) ?? "-") \(fact.accessAndCurrent & RecordFacts.currentVersionBit != 0)"
        }
        #expect(read == [#"com.a ["staff"] false"#, "com.b - true", #"com.a ["staff"] true"#])
        #expect(known.domains.count == 2 && known.accesses.count == 1, "each value kept once")
    }

    @Test func rowsWithValuesPastTheBoundAreNotLearned() {
        let facts = RecordFacts(count: 2)
        for number in 0..<RecordFacts.maxValues { facts.learn([.init(record: 0, row: row(access: "group-\(number)"))], at: 1) }
        facts.learn([.init(record: 1, row: row(access: "one too many"))], at: 1)
        #expect(facts.known([0, 1], at: 1, expiringAfter: 0).facts.map { $0 != nil } == [true, false])
        let before = facts.known([0, 1], at: 1, expiringAfter: 0).facts
        facts.learn([.init(record: 7, row: nil), .init(record: -1, row: nil)], at: 1)
        #expect(facts.known([0, 1], at: 1, expiringAfter: 0).facts == before, "a record number out of range is ignored, and changes nothing")
    }
}
