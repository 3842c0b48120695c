@testable import CategoryFeedPlugin
import Foundation
import PluginAPI
import PluginConformance
import Testing

@Suite("The category-feed plugin")
struct CategoryFeedPluginTests {
    func makePlugin(
        _ feed: String, in folder: Folder, thumbnails: CategoryFeedSource.Thumbnails? = nil, concurrency: Int? = nil,
        allowedHosts: [String]? = nil, retries: Int? = nil, partition: String? = nil, allowPrivateNetworks: Bool? = true
    ) throws -> (CategoryFeedSource, PluginContext) {
        var context = folder.context(domain: "com.shop.categories", source: "categories")
        context.partition = partition
        context.deepLink = "shop://category/{id}"
        let options = CategoryFeedSource.Options(
            // 10 s: far above what a local request takes even on a loaded CI machine (500 ms, then 3 s, flaked there,
            // the whole suite running on 2 cores), and below the 15 s the server's slow image takes, which must time out.
            feed: feed, thumbnails: thumbnails, concurrency: concurrency, timeout: DurationOption(.seconds(10)),
            maxImageBytes: nil, allowedHosts: allowedHosts, retries: retries, allowPrivateNetworks: allowPrivateNetworks
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

    // The test server stands for the internet above; these tests keep the default and meet it as what it is:
    // this machine.

    @Test func contentCannotMakeTheSchedulerFetchInternalAddresses() async throws {
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let (plugin, context) = try makePlugin(
                base.appendingPathComponent("hostile/feed.json").absoluteString, in: folder, thumbnails: .optional, allowPrivateNetworks: nil
            )
            let run = await PluginConformance.items(of: plugin)
            #expect(run.error == nil, "the feed itself is the operator's, trusted: \(String(describing: run.error))")
            #expect(run.items.count == 8)
            #expect(run.items.allSatisfy { $0.thumbnailData == nil })
            #expect(context.rejections.count == 0)
        }
        #expect(server.internalRequests == 0, "no request reached an internal address")
    }

    @Test func eachRefusalSaysWhy() async throws {
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let (plugin, context) = try makePlugin(base.appendingPathComponent("hostile/feed.json").absoluteString, in: folder, allowPrivateNetworks: nil)
            #expect(await PluginConformance.items(of: plugin).items.isEmpty)
            let reasons = context.rejections.examples.map(\.reason)
            #expect(reasons.count == 8)
            #expect(reasons.filter { $0.contains("a loopback address: content may not make the scheduler reach internal networks") }.count == 5, "\(reasons)")
            #expect(reasons.contains { $0.contains("169.254.169.254 resolves to 169.254.169.254, a link-local (169.254.0.0/16, cloud metadata) address") })
            #expect(reasons.contains { $0.contains("URLs with a user name or password are not fetched") })
            #expect(reasons.contains { $0.contains("unspecified") })
        }
        #expect(server.internalRequests == 0)
    }

    @Test func aFeedRedirectToAnInternalAddressIsRefusedUnlessAllowed() async throws {
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let feed = base.appendingPathComponent("redirecting/feed.json").absoluteString
            let (plugin, _) = try makePlugin(feed, in: folder, thumbnails: CategoryFeedSource.Thumbnails.none, allowPrivateNetworks: nil)
            let refused = await PluginConformance.items(of: plugin)
            #expect("\(refused.error.map { "\($0)" } ?? "none")".contains("127.0.0.1 resolves to 127.0.0.1, a loopback address"), "\(String(describing: refused.error))")
            #expect(server.internalRequests == 0)

            let (allowed, _) = try makePlugin(feed, in: folder, thumbnails: CategoryFeedSource.Thumbnails.none, allowPrivateNetworks: true)
            #expect(await PluginConformance.items(of: allowed).items.count == 9, "an operator can opt in")
            // At least once: under the whole suite on 2 cores a first request can time out and be retried (CI, 2026-11-27).
            #expect(server.internalRequests >= 1)
        }
    }

    @Test(arguments: [
        ("127.0.0.1", "loopback"), ("10.1.2.3", "private"), ("172.20.0.1", "private"), ("192.168.1.1", "private"),
        ("169.254.169.254", "link-local"), ("100.64.0.1", "shared"), ("0.0.0.0", "unspecified"), ("224.0.0.1", "multicast"),
        ("::1", "loopback"), ("::", "unspecified"), ("fe80::1", "link-local"), ("fd00:ec2::254", "unique-local"),
        ("::ffff:10.0.0.1", "private"), ("64:ff9b::7f00:1", "loopback"), ("2002:7f00:1::", "6to4"), ("ff02::1", "multicast"),
    ])
    func internalAddressesAreRecognised(address: String, kind: String) throws {
        let parsed = try #require(NetworkAddress(address))
        #expect(parsed.refusal?.contains(kind) == true, "\(address): \(parsed.refusal ?? "public")")
    }

    @Test(arguments: ["93.184.215.14", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "::ffff:8.8.8.8"])
    func publicAddressesPass(address: String) throws {
        #expect(try #require(NetworkAddress(address)).refusal == nil)
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
