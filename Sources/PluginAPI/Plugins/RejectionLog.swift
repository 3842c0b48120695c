public import Logging
import Synchronization

/// Where a plugin reports the content it skipped (a bad line, a missing thumbnail): each one is logged and
/// counted as `rejected` in the run's report.
public final class RejectionLog: Sendable {
    private let counter = Mutex(0)
    private let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    /// Records that `what` (an identifier, a line number, a path) was skipped, and why.
    public func reject(_ what: String, reason: String) {
        counter.withLock { $0 += 1 }
        logger.warning("rejected", metadata: ["what": "\(what)", "reason": "\(reason)"])
    }

    /// How many were rejected so far.
    public var count: Int { counter.withLock { $0 } }
}
