import ServiceLifecycle
import Synchronization

/// Work on a store run as a service of the group that runs the store's own services (see ``StoreOpener``): it
/// runs once and keeps its result for whoever ran the group.
final class StoreWork<Result: Sendable>: Service {
    private let work: @Sendable () async throws -> Result
    private let outcome = Mutex<Result?>(nil)

    init(_ work: @escaping @Sendable () async throws -> Result) {
        self.work = work
    }

    func run() async throws {
        let value = try await work()
        outcome.withLock { $0 = value }
    }

    /// What the work returned; throws `CancellationError` when it never ran to its end.
    func result() throws -> Result {
        guard let value = outcome.withLock({ $0 }) else { throw CancellationError() }
        return value
    }
}
