import Foundation
import HostSupport
@testable import SchedulerService
import Testing

/// ``AttemptThrottle``'s bearer check: only wrong tokens count, a held-back client waits whatever its token, and a
/// flood of wrong tokens never locks out a client that sent none, up to the spared limit.
@Suite("Attempt throttle")
struct AttemptThrottleTests {
    typealias Clock = OpenCounterTests.Clock

    @Test func rightTokensNeverCountAndAHeldBackClientWaitsWhateverItsToken() async {
        let clock = Clock()
        let throttle = AttemptThrottle(clock: clock)
        for _ in 0..<100 { #expect(await throttle.check(client: "a", correct: true).isSuccess) }
        for _ in 0..<AttemptThrottle.perClient { #expect(await throttle.check(client: "a", correct: false).isWrong) }
        #expect(await throttle.check(client: "a", correct: true).isHeldBack, "held back: the token is not looked at")
        #expect(await throttle.check(client: "b", correct: true).isSuccess, "another client is not")
        clock.advance(AttemptThrottle.window + 1)
        #expect(await throttle.check(client: "a", correct: true).isSuccess, "the window passed")
    }

    @Test func pastTheOverallLimitOnlyCleanClientsAreComparedUpToTheSparedLimit() async {
        let throttle = AttemptThrottle(clock: Clock())
        for client in 0..<AttemptThrottle.overall { #expect(await throttle.check(client: "guess-\(client)", correct: false).isWrong) }
        #expect(await throttle.check(client: "guess-0", correct: true).isHeldBack, "a client that guessed waits")
        #expect(await throttle.check(client: "operator", correct: true).isSuccess, "a clean client is compared")
        // Fresh addresses keep guessing: spared up to the limit, then everyone waits.
        for client in AttemptThrottle.overall..<AttemptThrottle.sparedLimit { _ = await throttle.check(client: "guess-\(client)", correct: false) }
        #expect(await throttle.check(client: "fresh", correct: false).isHeldBack)
        #expect(await throttle.check(client: "operator", correct: true).isHeldBack, "past the spared limit, no one is compared")
    }
}

extension Result where Success == Void, Failure == AttemptThrottle.BearerRefusal {
    var isSuccess: Bool { if case .success = self { true } else { false } }
    var isWrong: Bool { if case .failure(.wrong) = self { true } else { false } }
    var isHeldBack: Bool { if case .failure(.heldBack) = self { true } else { false } }
}
