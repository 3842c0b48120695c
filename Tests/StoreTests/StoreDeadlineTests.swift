import Store
import Testing

/// A deadline answers its caller at the limit, even when the work under it never ends and ignores its cancellation
/// (a driver waiting on a connection the server closed): the caller is never held by it. The time limit is the
/// failure of a held caller; it is generous because at the start of the whole suite on two cores the tasks a
/// deadline starts can wait a minute for a thread (seen once in CI, 2026-11-29), which holds nobody for ever.
@Suite("Store deadlines", .timeLimit(.minutes(5)))
struct StoreDeadlineTests {
    @Test func workThatIgnoresCancellationDoesNotHoldTheCaller() async throws {
        // The work waits for a signal sent only after the deadline has answered: were the caller held by the work,
        // this test would wait until its time limit and fail.
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let (ended, ending) = AsyncStream.makeStream(of: Void.self)
        await #expect(throws: StoreDeadline.Missed.self) {
            try await StoreDeadline(limit: .milliseconds(20)).run {
                await Self.waitIgnoringCancellation(for: release)
                ending.finish()
                return 1
            }
        }
        releasing.finish()
        // The abandoned work still ends once it can.
        for await _ in ended {}
    }

    @Test func aResultInTimeAndAnErrorArePassedOn() async throws {
        #expect(try await StoreDeadline(limit: .seconds(240)).run { 42 } == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await StoreDeadline(limit: .seconds(240)).run { () -> Int in throw Refused() } }
    }

    @Test func aCancelledCallerIsAnsweredAtOnce() async throws {
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let waiting = Task {
            try await StoreDeadline(limit: .seconds(600)).run {
                await Self.waitIgnoringCancellation(for: release)
                return 1
            }
        }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        releasing.finish()
    }

    /// Waits until `signal` finishes, deaf to cancellation (a detached task's value is awaited whatever happens).
    static func waitIgnoringCancellation(for signal: AsyncStream<Void>) async {
        await Task.detached { for await _ in signal {} }.value
    }
}
