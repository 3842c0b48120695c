public import Logging
import Synchronization

/// Where a plugin reports the content it skipped (a bad line, a missing thumbnail): each one is logged and
/// counted as `rejected` in the run's report, and the first ``keptExamples`` are kept to be shown.
public final class RejectionLog: Sendable {
    /// One skipped piece of content, and why.
    public struct Rejection: Sendable, Hashable {
        public var what: String
        public var reason: String
    }

    /// How many rejections are kept whole; the rest are only counted.
    public static let keptExamples = 100

    private let state = Mutex((count: 0, examples: [Rejection]()))
    private let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    /// Records that `what` (an identifier, a line number, a path) was skipped, and why.
    public func reject(_ what: String, reason: String) {
        state.withLock {
            $0.count += 1
            if $0.examples.count < Self.keptExamples { $0.examples.append(Rejection(what: what, reason: reason)) }
        }
        logger.warning("rejected", metadata: ["what": "\(what)", "reason": "\(reason)"])
    }

    /// How many were rejected so far.
    public var count: Int { state.withLock { $0.count } }

    /// The first ``keptExamples`` rejections, in order.
    public var examples: [Rejection] { state.withLock { $0.examples } }
}
