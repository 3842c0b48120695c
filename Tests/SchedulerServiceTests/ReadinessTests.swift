import HTTPTypes
import HummingbirdTesting
import Logging
@testable import SchedulerService
import SQLiteStore
import StoreSupport
import Testing

@Suite("Readiness and the search postings")
struct ReadinessTests {
    /// `/readyz` holds readiness back while the SQLite index's search postings are kept but none are held yet (read
    /// from their saved file or built at start: searches read every row meanwhile), and says why.
    @Test func readinessWaitsUntilTheSearchPostingsAreHeld() async throws {
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        // The service's index, opened on the store's file, its postings not built yet.
        try await SchedulerAPITests.withHarness(.sqlite, searchStructures: { store in
            [try SQLiteSearchIndex(path: (store.index as! SQLiteSearchIndex).path, logger: quiet)]
        }) { harness in
            let waiting = try await harness.client.execute(uri: "/readyz", method: .get)
            #expect(waiting.status == .serviceUnavailable)
            #expect(String(buffer: waiting.body).contains("the search postings are being read or built"), "\(String(buffer: waiting.body))")
            let index = try #require(harness.api.searchStructures.first as? SQLiteSearchIndex)
            try await index.buildSearchPostings()
            let ready = try await harness.client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .ok, "\(String(buffer: ready.body))")
        }
    }
}
