import Foundation
import HostSupport
@testable import Indexing
import Logging
import PluginAPI
@testable import SQLiteStore
import Store
import Synchronization
import Testing

/// A clock the test moves by hand.
final class ManualClock: WallClock {
    private let current: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }
    func now() -> Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0.addTimeInterval(seconds) } }
}

/// A fresh folder under the system's temporary directory, removed when the value is released.
final class TemporaryDirectory: Sendable {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("indexing-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// A real index in a temporary SQLite file, with its clock.
struct IndexFixture {
    let directory: TemporaryDirectory
    let clock: ManualClock
    let index: SQLiteSearchIndex

    init(timeToLive: Duration = StoreDefaults.timeToLive) throws {
        directory = try TemporaryDirectory()
        clock = ManualClock()
        index = try SQLiteSearchIndex(
            path: directory.path("index.sqlite"),
            timeToLive: timeToLive,
            clock: clock,
            logger: Logger(label: "test")
        )
    }

    /// The identifiers a search returns, in order.
    func identifiers(
        _ text: String, domain: String? = nil, type: String? = nil, limit: Int = 20, offset: Int = 0
    ) async throws -> [String] {
        try await index.search(SearchQuery(text: text, domain: domain, contentType: type, limit: limit, offset: offset))
            .hits.map(\.uniqueIdentifier)
    }
}

/// Fails when the index's full-text table disagrees with the items it indexes. FTS5 checks itself against its content
/// table (unless some descriptions are packed: it would read their bytes, ``PackedText``); then its words, each row's
/// count of them and the totals are compared with those of a table built afresh from the rows as statements read them,
/// which also catches a row's words removed with other text than it held, or a row indexed twice.
func checkFullTextTables(of index: SQLiteSearchIndex) async throws {
    let differences = try await index.database.write { db in
        let table = FullTextTable.items
        let packed = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item WHERE typeof(contentDescription) = 'blob')") ?? false
        try db.execute(sql: "INSERT INTO \(table.name)(\(table.name), rank) VALUES ('integrity-check', \(packed ? 0 : 1))")
        try db.execute(sql: """
            CREATE TEMP VIEW expected_content AS SELECT id, \(table.columns.map { "\($0.selected) AS \($0.rawValue)" }.joined(separator: ", ")) FROM item;
            \(table.createStatement.replacingOccurrences(of: "TABLE \(table.name)", with: "TABLE temp.expected_fts")
                .replacingOccurrences(of: "content='item'", with: "content='expected_content'"));
            INSERT INTO expected_fts(expected_fts) VALUES ('rebuild');
            CREATE VIRTUAL TABLE temp.actual_words USING fts5vocab(main, \(table.name), instance);
            CREATE VIRTUAL TABLE temp.expected_words USING fts5vocab(temp, expected_fts, instance);
            """)
        defer {
            try? db.execute(sql: "DROP TABLE temp.actual_words; DROP TABLE temp.expected_words; DROP TABLE temp.expected_fts; DROP VIEW temp.expected_content")
        }
        func differing(_ actual: String, _ expected: String) throws -> Int {
            try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT * FROM (\(actual) EXCEPT \(expected)) UNION ALL SELECT * FROM (\(expected) EXCEPT \(actual)))") ?? 0
        }
        let words = "SELECT term, doc, col, count(*) FROM %@ GROUP BY term, doc, col"
        return try [
            "words": differing(words.replacingOccurrences(of: "%@", with: "actual_words"), words.replacingOccurrences(of: "%@", with: "expected_words")),
            "sizes": differing("SELECT id, sz FROM main.\(table.name)_docsize", "SELECT id, sz FROM temp.expected_fts_docsize"),
            // Emptied by 'delete-all', the table keeps no totals where one built empty keeps zeros.
            "totals": try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item)") == true
                ? differing("SELECT block FROM main.\(table.name)_data WHERE id = 1", "SELECT block FROM temp.expected_fts_data WHERE id = 1") : 0,
        ].filter { $0.value > 0 }
    }
    #expect(differences.isEmpty, "the full-text table differs from one built from its rows: \(differences)")
}

func item(
    _ id: String, domain: String = "com.test", title: String? = nil, displayName: String? = nil,
    description: String? = nil, keywords: [String] = [], type: String = SearchableItem.defaultContentType,
    rankingHint: Int? = nil, expires: Date? = nil
) -> SearchableItem {
    SearchableItem(
        uniqueIdentifier: id, domainIdentifier: domain, contentType: type, title: title, displayName: displayName,
        contentDescription: description, keywords: keywords, contentURL: "test://item/\(id)", rankingHint: rankingHint,
        expirationDate: expires
    )
}
