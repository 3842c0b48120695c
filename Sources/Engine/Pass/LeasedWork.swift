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

    /// Runs `work` under the lease `name`; `nil` without running it when another replica holds the lease. When the
    /// lease is lost while `work` runs (another replica took it after it expired, or it could not be renewed before
    /// its expiry: the database was out of reach), `work` is cancelled (a plugin's program is stopped) and
    /// ``Store/LeaseLost`` is thrown: a unit runs on one live replica at a time. Either way, found by a renewal or by a
    /// write of `work`, the loss is said at warning level.
    func run<Result: Sendable>(_ name: String, _ work: @escaping @Sendable (any SchedulerStore) async throws -> Result) async throws -> Result? {
        let asked = ContinuousClock.now
        guard let lease = try await leases.take(name, holder: holder, for: duration) else { return nil }
        do {
            let fenced = leases.fenced(by: lease)
            let result = try await withThrowingTaskGroup(of: Finished<Result>.self) { group in
                group.addTask {
                    try await keepRenewing(lease, takenAt: asked)
                    return .renewals
                }
                group.addTask {
                    do {
                        return .work(try await work(fenced))
                    } catch let lost as LeaseLost {
                        // A write found it lost before a renewal did (this replica starved past the lease while another
                        // took it over): said as a renewal's finding is. Cancelled, the renewals said it already (or
                        // the service is stopping).
                        if !Task.isCancelled { logger.warning("a write under it found \(lost); the work under it stops") }
                        throw lost
                    }
                }
                defer { group.cancelAll() }
                while let finished = try await group.next() {
                    if case .work(let result) = finished { return result }
                }
                throw CancellationError()
            }
            await release(lease)
            return result
        } catch {
            await release(lease)
            throw error
        }
    }

    /// Which of the two tasks under a lease ended: the renewals end only when cancelled.
    private enum Finished<Result: Sendable>: Sendable {
        case work(Result)
        case renewals
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

    /// Renews `lease` until cancelled; throws ``Store/LeaseLost`` when another replica holds it now, or when no
    /// renewal went through for a whole lease's duration (counted on this machine's monotonic clock from before each
    /// request, so never later than the database's expiry), a renewal that hangs included.
    private func keepRenewing(_ lease: Lease, takenAt: ContinuousClock.Instant) async throws {
        var current = lease
        var heldSince = takenAt
        let (leases, duration) = (leases, duration)
        while true {
            try await Task.sleep(for: duration / 3)
            let asked = ContinuousClock.now
            guard asked - heldSince < duration else {
                // This process did not run for a whole lease's duration (paused, or starved): the lease has expired.
                logger.warning("the lease \(lease.name) expired before this replica could renew it (it did not run for \(asked - heldSince)); the work under it stops")
                throw LeaseLost(lease: current, currentHolder: nil, currentToken: nil)
            }
            do {
                let attempt = current
                let left = duration - (asked - heldSince)
                guard let renewed = try await StoreDeadline(limit: left).run({ try await leases.renew(attempt, for: duration) }) else {
                    logger.warning("the lease \(lease.name) was lost to another replica; the work under it stops")
                    throw LeaseLost(lease: current, currentHolder: nil, currentToken: nil)
                }
                current = renewed
                heldSince = asked
            } catch let lost as LeaseLost {
                throw lost
            } catch is CancellationError {
                return
            } catch {
                guard ContinuousClock.now - heldSince < duration else {
                    logger.warning("could not renew the lease \(lease.name) before it expired (\(error)); the work under it stops")
                    throw LeaseLost(lease: current, currentHolder: nil, currentToken: nil)
                }
                // The next attempt may work; until the lease expires the writes still pass their fence.
                logger.warning("could not renew the lease \(lease.name): \(error)")
            }
        }
    }
}
