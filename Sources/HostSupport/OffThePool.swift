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

private final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
