public import Indexing
public import Logging
public import ServiceLifecycle

/// Writes the opens ``OpenCounter`` holds to the store every few seconds, off the request path, and once more at
/// shutdown. A crash loses at most the counts of the last interval, never the index; a failed write is tried again.
public struct OpenCountWriter: Service {
    let counter: OpenCounter
    let index: any SearchIndex
    let interval: Duration
    let logger: Logger

    public init(counter: OpenCounter, index: any SearchIndex, interval: Duration = .seconds(5), logger: Logger) {
        self.counter = counter
        self.index = index
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while true {
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
            logger.warning("could not store \(tallies.count) open counts; trying again: \(error)")
            await counter.restore(tallies)
        }
    }
}
