import Synchronization

/// How long a caller waits for the store: a database that does not answer (PostgreSQL stopped, its network gone)
/// turns into an error with a sentence within seconds, instead of a wait until the driver gives up (20 s and more,
/// then a raw pool error). HTTP requests answer 503 with it; a shutdown does not wait on it for ever.
public struct StoreDeadline: Sendable {
    /// The store did not answer in time.
    public struct Missed: Error, CustomStringConvertible {
        public var limit: Duration
        public var description: String {
            "the database did not answer within \(limit.components.seconds) s; check that it runs and that this machine reaches it"
        }
    }

    /// The wait every HTTP request gets.
    public static let request = StoreDeadline(limit: .seconds(3))
    /// The wait for a cleanup on the way out (a lease released at shutdown).
    public static let cleanup = StoreDeadline(limit: .seconds(5))
    /// The wait for a read that many requests share (the feed's head, shared by the searches that ask at once):
    /// shorter than theirs, so that a read stuck on a dead connection fails the requests sharing it, and the next ones
    /// read again, before they all miss their own.
    public static let sharedRead = StoreDeadline(limit: .seconds(2))

    public var limit: Duration

    public init(limit: Duration) {
        self.limit = limit
    }

    /// `work`'s result, or ``Missed`` once `limit` has passed (`work` is then cancelled: a connection the pool is
    /// still waiting for is given up).
    ///
    /// The caller is answered at the limit even when `work` ignores its cancellation: a database driver may wait for
    /// ever (PostgresNIO 1.33 does, for a query written to a connection the server closed), and a task group would
    /// wait for such a child. So `work` runs in a task of its own, cancelled at the limit or when the caller is, and
    /// left to end by itself; the one that never ends costs its suspended frame, not a stuck caller.
    public func run<Result: Sendable>(_ work: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let answer = Answer<Result>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // A caller cancelled before it waited is answered at once, and nothing starts.
                guard answer.install(continuation) else { return }
                let limit = limit
                let task = Task {
                    do { answer.give(.success(try await work())) } catch { answer.give(.failure(error)) }
                }
                let timer = Task {
                    guard (try? await Task.sleep(for: limit)) != nil else { return }
                    answer.give(.failure(Missed(limit: limit)))
                }
                answer.onGiven {
                    task.cancel()
                    timer.cancel()
                }
            }
        } onCancel: {
            answer.give(.failure(CancellationError()))
        }
    }
}

/// The one answer a ``StoreDeadline`` gives: the first of the work's result, the limit, and the caller's
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
