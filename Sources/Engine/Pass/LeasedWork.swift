import Foundation
import Logging
import Store

/// Work that replicas must not do twice at once, done under a lease: taken first, renewed every third of its
/// duration while the work runs, released after. The work writes through the store fenced by the lease, so a
/// replica that stalled past the lease's expiry (a pause, SIGSTOP, a partition) and lost it cannot commit
/// anything when it wakes: its writes throw ``LeaseLost``.
struct LeasedWork {
    let leases: any LeaseStore
    /// This replica.
    let holder: String
    let duration: Duration
    let logger: Logger

    /// Runs `work` under the lease `name`; `nil` without running it when another replica holds the lease.
    func run<Result: Sendable>(_ name: String, _ work: (any SchedulerStore) async throws -> Result) async throws -> Result? {
        guard let lease = try await leases.take(name, holder: holder, for: duration) else { return nil }
        do {
            let result = try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await keepRenewing(lease) }
                defer { group.cancelAll() }
                return try await work(leases.fenced(by: lease))
            }
            await release(lease)
            return result
        } catch {
            await release(lease)
            throw error
        }
    }

    /// Releases `lease`, even when this task is cancelled (a graceful shutdown mid-run): the release runs in a task
    /// of its own, awaited here, so the next replica need not wait for the lease to expire. A failed release only
    /// means waiting for the expiry, and so does a database that does not answer within ``StoreDeadline/cleanup``
    /// (a shutdown never waits on it for ever). The task is awaited, so it never outlives this call; it is detached
    /// only to shed the cancellation (Swift has no cancellation shield yet). The store's pool outlives it: the
    /// store's `ServiceGroup` stops the pool after the work, a cleanup's time after the work's own limit.
    private func release(_ lease: Lease) async {
        let leases = leases
        await Task.detached { _ = try? await StoreDeadline.cleanup.run { try await leases.release(lease) } }.value
    }

    /// Renews `lease` until cancelled; stops when it is lost (the fenced writes then refuse the rest of the work).
    private func keepRenewing(_ lease: Lease) async throws {
        var current = lease
        while true {
            try await Task.sleep(for: duration / 3)
            do {
                guard let renewed = try await leases.renew(current, for: duration) else {
                    logger.warning("lost the lease \(lease.name) to another replica; its writes are refused from now on")
                    return
                }
                current = renewed
            } catch is CancellationError {
                return
            } catch {
                // The next attempt may work; until the lease expires the writes still pass their fence.
                logger.warning("could not renew the lease \(lease.name): \(error)")
            }
        }
    }
}
