import Foundation
public import HostSupport
public import Indexing
public import Logging
public import ServiceLifecycle

/// Writes the opens ``OpenCounter`` and the searches ``SearchCounter`` hold to the store every few seconds, off the
/// request path, and once more at shutdown; once a day, deletes the counts older than the retention
/// (`search.analyticsRetention`). A crash loses at most the counts of the last interval, never the index; a failed
/// write of opens is tried again, one of searches is dropped (it is logged).
public struct UsageWriter: Service {
    let counter: OpenCounter
    let searches: SearchCounter
    let index: any SearchIndex
    /// How long counts are kept: read from the configuration in force at each day's sweep.
    let retention: @Sendable () async -> Duration
    let interval: Duration
    let clock: any WallClock
    let logger: Logger

    public init(
        counter: OpenCounter, searches: SearchCounter, index: any SearchIndex, retention: @escaping @Sendable () async -> Duration, interval: Duration = .seconds(5),
        clock: any WallClock = SystemWallClock(), logger: Logger
    ) {
        self.counter = counter
        self.searches = searches
        self.index = index
        self.retention = retention
        self.interval = interval
        self.clock = clock
        self.logger = logger
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                var sweptDay: Int?
                while true {
                    let today = UsageDay.of(clock.now())
                    if sweptDay != today, await deleteExpiredCounts(today: today) { sweptDay = today }
                    try await Task.sleep(for: interval)
                    await writePending()
                }
            }
        } catch is CancellationError {
            // Shutting down: the last counts are written below.
        }
        await writePending(everything: true)
    }

    /// Writes what the counters hold (`everything`: the searches still being typed too); on failure gives the opens
    /// back to be tried at the next interval.
    public func writePending(everything: Bool = false) async {
        let searched = await searches.drain(everything: everything)
        if !searched.isEmpty {
            do {
                try await index.recordSearches(searched)
            } catch {
                logger.warning("could not store \(searched.count) search counts; they are dropped: \(error)")
            }
        }
        let tallies = await counter.drain()
        guard !tallies.isEmpty else { return }
        do {
            try await index.recordOpens(tallies)
        } catch {
            let dropped = await counter.restore(tallies)
            logger.warning("could not store \(tallies.count) open counts; trying again\(dropped > 0 ? " (\(dropped) opens dropped: no room)" : ""): \(error)")
        }
    }

    /// Deletes the counts of days before the retention, counted back from `today` (days since 1970, UTC); returns
    /// whether it could.
    public func deleteExpiredCounts(today: Int) async -> Bool {
        let days = UsageDay.count(in: await retention())
        do {
            let deleted = try await index.deleteUsage(before: today - days)
            if deleted > 0 { logger.info("deleted \(deleted) open and search counts older than \(days) days") }
            return true
        } catch {
            logger.warning("could not delete the open and search counts older than \(days) days; trying again: \(error)")
            return false
        }
    }
}
