import Engine
import Foundation
import Indexing
import Logging

/// Measures a purge as users and writers feel it: how long until the domain is gone from search, then how the
/// rows are reclaimed (steps, the longest write-lock hold, total time).
enum PurgeBenchmark {
    static func measure(_ index: any SearchIndex, domain: String = SyntheticItems.bigDomain, label: String = "") async throws {
        let start = ContinuousClock.now
        let hidden = try await index.delete(domains: [domain]).deleted
        let invisible = ContinuousClock.now - start
        let left = try await index.itemCount(inDomain: domain)
        guard left == 0 else { throw BenchmarkError("\(left) items of the purged domain are still counted") }
        print(String(format: "%@purge of a domain holding %d items: gone from search in %.0f ms", label, hidden, invisible.seconds * 1000))

        let reclaimer = PurgeReclaimer(index: index, logger: Logger(label: "bench"))
        var limit = PurgeReclaimer.firstStepLimit, steps: [Duration] = [], rows = 0
        let reclaimStart = ContinuousClock.now
        while true {
            let stepStart = ContinuousClock.now
            guard let (deleted, next) = try await reclaimer.step(limit: limit) else { break }
            steps.append(ContinuousClock.now - stepStart)
            (rows, limit) = (rows + deleted, next)
        }
        let total = ContinuousClock.now - reclaimStart
        let sorted = steps.sorted()
        guard let longest = sorted.last else { return print("\(label)nothing to reclaim") }
        print(String(format: "%@reclaimed %d rows in %.1f s (%.0f rows/s), %d steps: median %.0f ms, p99 %.0f ms, longest %.0f ms, over 250 ms: %d",
            label, rows, total.seconds, Double(rows) / max(total.seconds, 0.001), steps.count, sorted[sorted.count / 2].seconds * 1000,
            sorted[min(sorted.count - 1, sorted.count * 99 / 100)].seconds * 1000, longest.seconds * 1000,
            steps.filter { $0 > .milliseconds(250) }.count))
    }
}
