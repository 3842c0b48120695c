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
    /// ever on a connection the server closed (PostgresNIO 1.33 does, for a query written after the close), and a
    /// task group would wait for such a child (``AbandonableWork``).
    public func run<Result: Sendable>(_ work: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let limit = limit
        return try await AbandonableWork.run(checkingEvery: limit, giveUp: { Missed(limit: limit) }, work)
    }
}
