import CategoryFeedPlugin
import Foundation
import PluginAPI
import PluginConformance
import Testing

@Suite("The category-feed plugin")
struct CategoryFeedPluginTests {
    func makePlugin(
        _ feed: String, in folder: Folder, thumbnails: CategoryFeedSource.Thumbnails? = nil, concurrency: Int? = nil,
        allowedHosts: [String]? = nil, retries: Int? = nil, partition: String? = nil
    ) throws -> (CategoryFeedSource, PluginContext) {
        var context = folder.context(domain: "com.shop.categories", source: "categories")
        context.partition = partition
        context.deepLink = "shop://category/{id}"
        let options = CategoryFeedSource.Options(
            feed: feed, thumbnails: thumbnails, concurrency: concurrency, timeout: DurationOption(.milliseconds(500)),
            maxImageBytes: nil, allowedHosts: allowedHosts, retries: retries
        )
        return (try CategoryFeedSource(options: options, context: context), context)
    }

    @Test func withRequiredThumbnailsOnlyCategoriesWhoseImageDownloadedAreIndexed() async throws {
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let (plugin, context) = try makePlugin(base.appendingPathComponent("feed.json").absoluteString, in: folder)
            let run = await PluginConformance.items(of: plugin)
            #expect(run.error == nil)
            #expect(run.violations.isEmpty, "\(run.violations)")
            #expect(run.items.map(\.uniqueIdentifier) == ["1"])
            let cheese = try #require(run.items.first)
            #expect(cheese.title == "Cheese")
            #expect(cheese.keywords == ["brie", "comté", "camembert"])
            #expect(cheese.contentDescription == "Soft and hard.")
            #expect(cheese.contentURL == "shop://category/1")
            #expect(cheese.thumbnailData == FeedServer.png)
            #expect(cheese.thumbnailURL == base.appendingPathComponent("images/good.png").absoluteString)
            // Malformed URL, 404, too large, too slow, not an image, no URL, no id, not http, a redirect.
            #expect(context.rejections.count == 9)
        }
    }

    @Test func withOptionalThumbnailsEveryCategoryIsIndexedAndOnlyGoodImagesAttached() async throws {
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let (plugin, context) = try makePlugin(base.appendingPathComponent("feed.json").absoluteString, in: folder, thumbnails: .optional)
            let run = await PluginConformance.items(of: plugin)
            #expect(run.items.map(\.uniqueIdentifier) == ["1", "2", "3", "4", "5", "6", "7", "8", "9"])
            #expect(run.items.filter { $0.thumbnailData != nil }.map(\.uniqueIdentifier) == ["1"])
            #expect(run.items.first { $0.uniqueIdentifier == "2" }?.keywords == ["red", "white"])
            #expect(context.rejections.count == 1, "only the category without an id")
        }
    }

    @Test func withoutThumbnailsNothingIsDownloaded() async throws {
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let (plugin, _) = try makePlugin(base.appendingPathComponent("feed.json").absoluteString, in: folder, thumbnails: CategoryFeedSource.Thumbnails.none)
            let run = await PluginConformance.items(of: plugin)
            #expect(run.items.count == 9)
            #expect(run.items.allSatisfy { $0.thumbnailData == nil })
        }
        #expect(server.imageRequests == 0)
    }

    @Test func imagesComeOnlyFromAllowedHosts() async throws {
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let (plugin, _) = try makePlugin(base.appendingPathComponent("feed.json").absoluteString, in: folder, allowedHosts: ["cdn.example.com"])
            #expect(await PluginConformance.items(of: plugin).items.isEmpty)
        }
        #expect(server.imageRequests == 0)
    }

    @Test func downloadsRunAtMostConcurrencyAtOnce() async throws {
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let (plugin, _) = try makePlugin(base.appendingPathComponent("many/feed.json").absoluteString, in: folder, concurrency: 3)
            #expect(await PluginConformance.items(of: plugin).items.count == 12)
        }
        #expect(server.imageRequests == 12)
        #expect(server.maxInFlight <= 3)
    }

    @Test func aFlakyFeedIsRetriedAndADownOneFailsTheRun() async throws {
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let (flaky, _) = try makePlugin(base.appendingPathComponent("flaky/feed.json").absoluteString, in: folder, retries: 3)
            #expect(await PluginConformance.items(of: flaky).items.count == 1)

            let (down, _) = try makePlugin(base.appendingPathComponent("down/feed.json").absoluteString, in: folder, retries: 1)
            let failed = await PluginConformance.items(of: down)
            #expect("\(failed.error.map { "\($0)" } ?? "none")".contains("the feed failed after 2 attempt(s): HTTP 500"))

            let (garbage, _) = try makePlugin(base.appendingPathComponent("notjson/feed.json").absoluteString, in: folder)
            #expect("\(await PluginConformance.items(of: garbage).error.map { "\($0)" } ?? "none")".contains("is not a JSON array of categories"))
        }
    }

    @Test func aFeedFileIsReadPerPartition() async throws {
        let folder = try Folder()
        try folder.write("feeds/fr.json", #"{"categories": [{"id": 12, "name": "Fromages", "keywords": "brie comté"}]}"#)
        let (plugin, _) = try makePlugin("feeds/{partition}.json", in: folder, thumbnails: CategoryFeedSource.Thumbnails.none, partition: "fr")
        let run = await PluginConformance.items(of: plugin)
        #expect(run.items.map(\.uniqueIdentifier) == ["fr/12"])
        #expect(run.items.first?.contentURL == "shop://category/12")
        let (missing, _) = try makePlugin("feeds/{partition}.json", in: folder, partition: "de")
        #expect("\(await PluginConformance.items(of: missing).error.map { "\($0)" } ?? "none")".contains("cannot read the feed file"))
    }

    @Test func itConforms() async throws {
        #expect(PluginConformance.declaration(of: CategoryFeedSource.self).isEmpty)
        #expect(PluginConformance.refuses(CategoryFeedSource.self, invalid: [
            .init(feed: ""), .init(feed: "ftp://example.com/feed.json"), .init(feed: "f.json", concurrency: 0),
            .init(feed: "f.json", concurrency: 65), .init(feed: "f.json", timeout: DurationOption(.milliseconds(1))),
            .init(feed: "f.json", maxImageBytes: 2 << 20), .init(feed: "f.json", allowedHosts: []), .init(feed: "f.json", retries: 11),
        ]).isEmpty)
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let (plugin, _) = try makePlugin(base.appendingPathComponent("many/feed.json").absoluteString, in: folder, concurrency: 2)
            #expect(await PluginConformance.honoursCancellation(plugin).isEmpty)
            #expect(await PluginConformance.honoursCancellation(plugin, afterItems: 1).isEmpty)
        }
    }
}
