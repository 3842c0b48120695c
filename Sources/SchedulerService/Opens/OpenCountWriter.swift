import Foundation
public import HostSupport
public import Indexing
public import Logging
public import ServiceLifecycle

/// Writes the opens ``OpenCounter`` holds to the store every few seconds, off the request path, and once more at
/// shutdown; once a day, deletes the counts older than the retention (`search.analyticsRetention`). A crash loses at
/// most the counts of the last interval, never the index; a failed write is tried again.
public struct OpenCountWriter: Service {
    let counter: OpenCounter
    let index: any SearchIndex
    /// How long counts are kept: read from the configuration in force at each day's sweep.
    let retention: @Sendable () async -> Duration
    let interval: Duration
    let clock: any WallClock
    let logger: Logger

    public init(
        counter: OpenCounter, index: any SearchIndex, retention: @escaping @Sendable () async -> Duration, interval: Duration = .seconds(5),
        clock: any WallClock = SystemWallClock(), logger: Logger
    ) {
        self.counter = counter
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
                    let today = Int((clock.now().timeIntervalSince1970 / 86_400).rounded(.down))
                    if sweptDay != today, await deleteExpiredCounts(today: today) { sweptDay = today }
                    try await Task.sleep(for: interval)
                    await writePending()
                }
            }
        } catch is CancellationError {
            // Shutting down: the last counts are written below.
        }
        await writePending()
    }

    /// Writes what the counter holds; on failure gives it back to be tried at the next interval.
    public func writePending() async {
        let tallies = await counter.drain()
        guard !tallies.isEmpty else { return }
        do {
            try await index.recordOpens(tallies)
        } catch {
            let dropped = await counter.restore(tallies)
            logger.warning("could not store \(tallies.count) open counts; trying again\(dropped > 0 ? " (\(dropped) opens dropped: no room)" : ""): \(error)")
        }
    }

    /// Deletes the counts of days before the retention; returns whether it could.
    func deleteExpiredCounts(today: Int) async -> Bool {
        let days = Int((await retention().seconds / 86_400).rounded(.up))
        do {
            let deleted = try await index.deleteOpens(before: today - days)
            if deleted > 0 { logger.info("deleted \(deleted) open counts older than \(days) days") }
            return true
        } catch {
            logger.warning("could not delete the open counts older than \(days) days; trying again: \(error)")
            return false
        }
    }
}
