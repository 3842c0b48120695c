import Foundation
import Logging
import PluginAPI
import Store
import StoreSupport
import Testing

/// A run's first rejections are kept with it in the history, alike on every store, bounded in number and length.
@Suite("A run's rejections in the history")
struct RunRejectionsTests {
    @Test(arguments: StoreBackend.allCases)
    func theFirstRejectionsAreKeptWithTheRun(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: StoreConformanceTests.clock) { store in
            let log = RejectionLog(logger: .init(label: "test") { _ in SwiftLogNoOpLogHandler() })
            log.reject("b.md", reason: "published at 'report', as a.md is (read first)")
            log.reject(String(repeating: "x", count: 2_000), reason: "long")
            for index in 0..<20 { log.reject("file-\(index).md", reason: "bad date") }
            let now = StoreConformanceTests.clock.now()
            var run = RunRecord(
                unit: "blog", source: "blog", domain: "com.test.blog", startedAt: now, finishedAt: now, decision: .reindexed, reason: "due",
                indexed: 1, deleted: 0, rejected: log.count, error: nil, forced: false
            )
            run.rejections = RunRecord.kept(from: log)
            try await store.append(run)
            let kept = try #require(try await store.history(source: "blog", limit: 1).first)
            #expect(kept.rejected == 22 && kept.rejections.count == RunRecord.maxRejectionsKept)
            #expect(kept.rejections.first == .init(what: "b.md", reason: "published at 'report', as a.md is (read first)"))
            #expect(kept.rejections[1].what.utf8.count <= RunRecord.maxRejectionBytes && kept.rejections[1].what.hasSuffix("…"))
        }
    }
}
