import GRDB
import Logging
@testable import SQLiteStore
import Testing

/// Each connection's page cache: a small one for the connections searches read through (the candidate row cache
/// answers most rows beside it), SQLite's larger one for the connection that writes (imports, migrations).
@Suite("Page caches of the index's connections")
struct PageCacheTests {
    @Test func readersKeepFourMegabytesAndTheWriterSixteen() throws {
        let directory = try TemporaryDirectory()
        let index = try SQLiteSearchIndex(path: directory.path("index.sqlite"), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let read = try index.database.read { try Int.fetchOne($0, sql: "PRAGMA cache_size") }
        let written = try index.database.write { try Int.fetchOne($0, sql: "PRAGMA cache_size") }
        // Negative: kibibytes.
        #expect(read == -4_096)
        #expect(written == -16_384)
    }
}
