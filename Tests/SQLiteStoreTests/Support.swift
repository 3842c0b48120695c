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
