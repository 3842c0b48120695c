import Foundation
import HostSupport
import Logging
import SchedulerConfig
import SchedulerService
@testable import SQLiteStore
import Testing

/// `search.rowCacheMegabytes` reaches the SQLite index the service and `run-once` open (through the settings): the
/// bytes of candidate rows its searches keep (``CandidateRowCache``).
@Suite("The candidate rows' bound as the configuration sets it")
struct RowCacheSettingTests {
    let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    @Test(arguments: [nil, 0, 3])
    func theIndexKeepsWhatTheSettingSays(megabytes: Int?) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("row-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var settings = SchedulerSettings(store: .sqlite(path: folder.appendingPathComponent("index.sqlite").path), localFilesPath: folder.path)
        settings.search.rowCacheMegabytes = megabytes
        let expected = megabytes.map { $0 << 20 } ?? SQLiteSearchIndex.defaultRowCacheBytes
        let held = try await StoreOpener.withStore(settings, clock: SystemWallClock(), logger: quiet) { store in
            try #require(store.index as? SQLiteSearchIndex).candidateRows.maxBytes
        }
        #expect(held == expected)
        #expect(SQLiteSearchIndex.defaultRowCacheBytes > 0 && SQLiteSearchIndex.defaultRowCacheBytes <= 512 << 20)
    }
}
