import Indexing
import Testing

/// The shared read of the feed's head (``JoinedRead``): callers that ask while a read runs share the next one, never
/// the one under way, so each sees what was committed before it asked.
@Suite("A read shared by callers at the same moment", .timeLimit(.minutes(5)))
struct JoinedReadTests {
    /// Reads that end when the test says, each returning its number (1 for the first read, …).
    actor GatedReads {
        private(set) var started = 0
        private var gates: [Int: CheckedContinuation<Result<Int, any Error>, Never>] = [:]

        func read() async throws -> Int {
            started += 1
            let number = started
            return try await withCheckedContinuation { gates[number] = $0 }.get()
        }

        func isRunning(_ number: Int) -> Bool { gates[number] != nil }

        func end(_ number: Int, with result: Result<Int, any Error>) {
            gates.removeValue(forKey: number)?.resume(returning: result)
        }
    }

    struct Refused: Error {}

    static func untilRunning(_ number: Int, _ reads: GatedReads) async {
        while await !reads.isRunning(number) { await Task.yield() }
    }

    static func untilWaiting(_ callers: Int, _ joined: JoinedRead<Int>) async {
        while await joined.waitingCallers < callers { await Task.yield() }
    }

    /// Read 1 runs for a first caller while two more ask, in this order; read 1 ends; returns the two, once the first
    /// of them runs read 2 for both.
    static func twoCallersSharingTheSecondRead(_ joined: JoinedRead<Int>, _ reads: GatedReads) async throws -> (reader: Task<Int, any Error>, sharer: Task<Int, any Error>) {
        let first = Task { try await joined.value() }
        await untilRunning(1, reads)
        let reader = Task { try await joined.value() }
        await untilWaiting(1, joined)
        let sharer = Task { try await joined.value() }
        await untilWaiting(2, joined)
        await reads.end(1, with: .success(1))
        #expect(try await first.value == 1)
        await untilRunning(2, reads)
        return (reader, sharer)
    }

    /// With no read under way, a caller runs read `number` at once.
    static func aCallerReadsAtOnce(_ number: Int, _ joined: JoinedRead<Int>, _ reads: GatedReads) async throws {
        let caller = Task { try await joined.value() }
        await untilRunning(number, reads)
        await reads.end(number, with: .success(number))
        #expect(try await caller.value == number)
    }

    @Test func callersWhoAskDuringAReadShareTheNextOne() async throws {
        let reads = GatedReads()
        let joined = JoinedRead { try await reads.read() }
        let (second, third) = try await Self.twoCallersSharingTheSecondRead(joined, reads)
        await reads.end(2, with: .success(2))
        #expect(try await second.value == 2)
        #expect(try await third.value == 2)
        #expect(await reads.started == 2)
        try await Self.aCallerReadsAtOnce(3, joined, reads)
    }

    @Test func aFailedReadFailsTheCallersSharingItAndTheNextCallerReadsAgain() async throws {
        let reads = GatedReads()
        let joined = JoinedRead { try await reads.read() }
        let (second, third) = try await Self.twoCallersSharingTheSecondRead(joined, reads)
        // A caller that asks while read 2 runs is not failed with it: it reads again.
        let fourth = Task { try await joined.value() }
        await Self.untilWaiting(1, joined)
        await reads.end(2, with: .failure(Refused()))
        await #expect(throws: Refused.self) { try await second.value }
        await #expect(throws: Refused.self) { try await third.value }
        await Self.untilRunning(3, reads)
        await reads.end(3, with: .success(3))
        #expect(try await fourth.value == 3)
        try await Self.aCallerReadsAtOnce(4, joined, reads)
    }

    @Test func aReaderCancelledHandsItsReadToACallerSharingIt() async throws {
        let reads = GatedReads()
        let joined = JoinedRead { try await reads.read() }
        let (reader, sharer) = try await Self.twoCallersSharingTheSecondRead(joined, reads)
        let later = Task { try await joined.value() }
        await Self.untilWaiting(1, joined)
        // Read 2's reader is cancelled and its read fails for that: the caller sharing it runs read 3; the one that
        // asked during read 2 waits for read 3 to end, and runs read 4.
        reader.cancel()
        await reads.end(2, with: .failure(CancellationError()))
        await #expect(throws: CancellationError.self) { try await reader.value }
        await Self.untilRunning(3, reads)
        await reads.end(3, with: .success(3))
        #expect(try await sharer.value == 3)
        await Self.untilRunning(4, reads)
        await reads.end(4, with: .success(4))
        #expect(try await later.value == 4)
    }

    /// Every caller sharing a read is cancelled in turn as it runs it: the last one's failure is its own, and the
    /// next caller reads at once.
    @Test func callersCancelledOneAfterAnotherLeaveNoneWaiting() async throws {
        let reads = GatedReads()
        let joined = JoinedRead { try await reads.read() }
        let (reader, sharer) = try await Self.twoCallersSharingTheSecondRead(joined, reads)
        reader.cancel()
        await reads.end(2, with: .failure(CancellationError()))
        await Self.untilRunning(3, reads)
        sharer.cancel()
        await reads.end(3, with: .failure(CancellationError()))
        await #expect(throws: CancellationError.self) { try await reader.value }
        await #expect(throws: CancellationError.self) { try await sharer.value }
        try await Self.aCallerReadsAtOnce(4, joined, reads)
    }

    /// A counter of commits, read as a store's head is.
    actor Commits {
        private var number = 0
        func commit() -> Int {
            number += 1
            return number
        }
        var head: Int { number }
    }

    /// Many callers at once, each committing before it asks: none is given a head older than its own commit.
    @Test func everyCallerSeesTheCommitsMadeBeforeItAsked() async throws {
        let commits = Commits()
        // Like a statement's snapshot: the head as the read starts, returned a round trip later.
        let joined = JoinedRead {
            let head = await commits.head
            for _ in 0..<3 { await Task.yield() }
            return head
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2_000 {
                group.addTask {
                    let committed = await commits.commit()
                    let head = try await joined.value()
                    #expect(head >= committed)
                }
            }
            try await group.waitForAll()
        }
    }
}
