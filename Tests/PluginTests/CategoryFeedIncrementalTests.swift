@testable import CategoryFeedPlugin
import Foundation
import PluginAPI
import PluginConformance
import Testing

/// The `category-feed` plugin's incremental runs: a conditional GET with the last run's validators, nothing written
/// when the feed did not change, and the categories gone from a changed feed deleted.
@Suite("Category feed: incremental runs")
struct CategoryFeedIncrementalTests {
    /// A run of the feed at `path` on `base` in `mode` with `state`: the titles sent by identifier, the deletions
    /// and the state.
    static func run(_ path: String, on base: URL, in folder: Folder, mode: SyncMode = .full, state: SyncState? = nil) async throws -> IncrementalRun {
        try await run(feed: base.appendingPathComponent(path).absoluteString, in: folder, mode: mode, state: state)
    }

    /// A run of `feed`, a URL or a file.
    static func run(feed: String, in folder: Folder, mode: SyncMode = .full, state: SyncState? = nil) async throws -> IncrementalRun {
        var context = folder.context(domain: "com.shop.categories", source: "categories")
        context.mode = mode
        context.state = state
        // 60 s: no request here is meant to time out, and under the whole suite on 2 cores the local server's answer
        // waited past 10 s in CI (2026-11-27) while every test task queued for the same two threads.
        let options = CategoryFeedSource.Options(
            feed: feed, thumbnails: CategoryFeedSource.Thumbnails.none, concurrency: nil,
            timeout: DurationOption(.seconds(60)), maxImageBytes: nil, allowedHosts: nil, retries: 0, allowPrivateNetworks: true
        )
        return await IncrementalRun(of: try CategoryFeedSource(options: options, context: context))
    }

    @Test func anUnchangedFeedAnswers304AndNothingIsWritten() async throws {
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let full = try await Self.run("versioned/feed.json", on: base, in: folder)
            #expect(full.items == ["1": "Cheese", "2": "Wine", "3": "Bread"])
            let state = try #require(full.state)
            let kept = try state.decode(as: FeedState.self)
            #expect(kept.validators.etag != nil && kept.validators.lastModified == "Wed, 21 Oct 2026 07:28:00 GMT")

            let again = try await Self.run("versioned/feed.json", on: base, in: folder, mode: .incremental, state: state)
            #expect(again.error == nil)
            #expect(again.items.isEmpty && again.deleted.isEmpty)
            #expect(server.notModified == 1, "asked with If-None-Match, answered 304")
            #expect(try again.state?.decode(as: FeedState.self) == kept, "the same state, for the next run")

            // A full run asks unconditionally and sends everything.
            #expect(try await Self.run("versioned/feed.json", on: base, in: folder, mode: .full, state: state).items.count == 3)
            #expect(server.notModified == 1)
        }
    }

    @Test func aChangedFeedIsSentWholeAndWhatLeftItDeleted() async throws {
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let full = try await Self.run("versioned/feed.json", on: base, in: folder)
            let state = try #require(full.state)
            server.serve(categories: ["Cheese", "Wine"])
            let changed = try await Self.run("versioned/feed.json", on: base, in: folder, mode: .incremental, state: state)
            #expect(changed.error == nil)
            #expect(changed.items == ["1": "Cheese", "2": "Wine"])
            #expect(changed.deleted == ["3"])
            #expect(try changed.state?.decode(as: FeedState.self).ids == ["1", "2"])
            #expect(server.notModified == 0)
        }
    }

    /// A server without validators: the same bytes are recognised by their digest.
    @Test func theSameBytesWithoutValidatorsWriteNothing() async throws {
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let full = try await Self.run("plain/feed.json", on: base, in: folder)
            let state = try #require(full.state)
            #expect(try state.decode(as: FeedState.self).validators == HTTPFetcher.Validators())
            let same = try await Self.run("plain/feed.json", on: base, in: folder, mode: .incremental, state: state)
            #expect(same.items.isEmpty && same.deleted.isEmpty && same.state == state)
            server.serve(categories: ["Bread"])
            let changed = try await Self.run("plain/feed.json", on: base, in: folder, mode: .incremental, state: state)
            #expect(changed.items == ["1": "Bread"] && changed.deleted == ["2", "3"])
        }
    }

    @Test func validatorsTooLongOrWithControlCharactersAreNotKept() async throws {
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let full = try await Self.run("hostile-validators/feed.json", on: base, in: folder)
            #expect(full.items.count == 3)
            let validators = try full.state?.decode(as: FeedState.self).validators
            #expect(validators == HTTPFetcher.Validators(), "\(String(describing: validators))")
        }
    }

    /// A state of another feed, of another version or not one at all: the engine runs a full run instead.
    @Test func aStateTheFeedDidNotWriteIsUnusable() async throws {
        let server = FeedServer(), folder = try Folder()
        try await server.run { base in
            let other = try #require(try await Self.run("plain/feed.json", on: base, in: folder).state)
            let states = [other, try SyncState(json: Data(#"{"version": 99}"#.utf8)), try SyncState(json: Data("[1, 2]".utf8))]
            for state in states {
                let run = try await Self.run("versioned/feed.json", on: base, in: folder, mode: .incremental, state: state)
                #expect(run.error is SyncStateUnusable, "\(String(describing: run.error))")
                #expect(run.items.isEmpty)
            }
        }
    }

    /// A state over the limit: a full run ends without one, an incremental run asks for a full run (its last state,
    /// kept, would no longer say what is indexed).
    @Test func aStateOverTheLimitIsNotKept() async throws {
        let folder = try Folder()
        try folder.write("feed.json", #"[{"id": 1, "name": "Cheese"}]"#)
        let small = try #require(try await Self.run(feed: folder.path("feed.json"), in: folder).state)
        let entries = (1...5000).map { #"{"id": "\#(String(repeating: "x", count: 240))-\#($0)", "name": "Item"}"# }
        try folder.write("feed.json", "[" + entries.joined(separator: ",") + "]")
        let full = try await Self.run(feed: folder.path("feed.json"), in: folder)
        #expect(full.error == nil && full.items.count == 5000 && full.state == nil)
        let incremental = try await Self.run(feed: folder.path("feed.json"), in: folder, mode: .incremental, state: small)
        #expect(incremental.error is SyncStateUnusable, "\(String(describing: incremental.error))")
    }
}
