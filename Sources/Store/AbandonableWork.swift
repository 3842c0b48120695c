import Synchronization

/// Work its caller may stop waiting for: it runs in a task of its own, and the caller is answered by the first of
/// its result, an error a periodic check gives, and the caller's own cancellation. `work` is then cancelled and left
/// to end by itself.
///
/// For calls into a driver that may ignore cancellation (``StoreDeadline``): PostgresNIO 1.33 never answers a query
/// written to a connection the server has closed, and a task group (a `ServiceGroup`'s included) would wait for such
/// a child for ever. The one that never ends costs its suspended frame, not a stuck caller or a shutdown that never
/// finishes.
public enum AbandonableWork {
    /// `work`'s result; or, while it runs, the error `giveUp` returns when asked every `interval` (`nil` to go on
    /// waiting); or `CancellationError` as soon as the caller is cancelled.
    public static func run<Result: Sendable>(
        checkingEvery interval: Duration, giveUp: @escaping @Sendable () -> (any Error)?, _ work: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let answer = Answer<Result>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // A caller cancelled before it waited is answered at once, and nothing starts.
                guard answer.install(continuation) else { return }
                let task = Task {
                    do { answer.give(.success(try await work())) } catch { answer.give(.failure(error)) }
                }
                let checks = Task {
                    while (try? await Task.sleep(for: interval)) != nil {
                        if let error = giveUp() {
                            answer.give(.failure(error))
                            return
                        }
                    }
                }
                answer.onGiven {
                    task.cancel()
                    checks.cancel()
                }
            }
        } onCancel: {
            answer.give(.failure(CancellationError()))
        }
    }
}

/// The one answer ``AbandonableWork`` gives: the first of the work's result, a check's error, and the caller's
/// cancellation; the later ones are dropped.
private final class Answer<Result: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result, any Error>?
        var early: Swift.Result<Result, any Error>?
        var given = false
        var onGiven: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// Where the answer goes; given at once when it came first (a cancellation before the wait began), and then
    /// false.
    func install(_ continuation: CheckedContinuation<Result, any Error>) -> Bool {
        let early = state.withLock { state -> Swift.Result<Result, any Error>? in
            guard let early = state.early else {
                state.continuation = continuation
                return nil
            }
            state.early = nil
            return early
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    /// Runs `action` once the answer is given (at once when it has been).
    func onGiven(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.given { return true }
            state.onGiven.append(action)
            return false
        }
        if now { action() }
    }

    /// Gives `result` unless an answer was given already.
    func give(_ result: Swift.Result<Result, any Error>) {
        let (continuation, actions) = state.withLock { state -> (CheckedContinuation<Result, any Error>?, [@Sendable () -> Void]) in
            guard !state.given else { return (nil, []) }
            state.given = true
            let actions = state.onGiven
            state.onGiven = []
            guard let continuation = state.continuation else {
                state.early = result
                return (nil, actions)
            }
            state.continuation = nil
            return (continuation, actions)
        }
        continuation?.resume(with: result)
        actions.forEach { $0() }
    }
}
