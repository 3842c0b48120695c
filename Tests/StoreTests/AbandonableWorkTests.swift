import Store
import Synchronization
import Testing

/// Work its caller may stop waiting for: a check's error answers the caller while the work ignores its cancellation.
@Suite("Abandonable work", .timeLimit(.minutes(1)))
struct AbandonableWorkTests {
    struct Closed: Error {}

    @Test func aCheckGivingUpAnswersWhileTheWorkIgnoresItsCancellation() async throws {
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let counted = CheckCount()
        await #expect(throws: Closed.self) {
            try await AbandonableWork.run(checkingEvery: .milliseconds(5), giveUp: { counted.next() >= 3 ? Closed() : nil }) {
                await StoreDeadlineTests.waitIgnoringCancellation(for: release)
                return 1
            }
        }
        #expect(counted.value == 3, "asked until it gave up, then no more")
        releasing.finish()
    }
}

/// How many times a check was asked, from the checks' task.
private final class CheckCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func next() -> Int { count.withLock { $0 += 1; return $0 } }
}
