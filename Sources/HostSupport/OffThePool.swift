import Dispatch
import Synchronization

/// Runs `work` on a thread outside Swift's cooperative pool, whose few threads (two on a 2-core node) must not wait
/// on the reading, writing or syncing of hundreds of megabytes; `work` is told when the task is cancelled (a
/// shutdown) through its argument, and checks it where it can stop.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) throws -> T) async throws -> T {
    let cancelled = CancellationFlag()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .utility).async {
                continuation.resume(with: Result { try work { cancelled.isSet } })
            }
        }
    } onCancel: {
        cancelled.set()
    }
}

/// Set once a task is cancelled, read by work that runs outside it (on a database's queue, a thread of its own)
/// and stops where it can.
package final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    package init() {}
    package var isSet: Bool { flag.load(ordering: .relaxed) }
    package func set() { flag.store(true, ordering: .relaxed) }
}
