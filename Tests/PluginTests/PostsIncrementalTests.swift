import Foundation
import Glibc
import PluginAPI
import PluginConformance
@testable import PostsPlugin
import Testing

/// The `posts` plugin's incremental runs: only files that changed are read and sent again, files gone have their
/// items deleted, and a state that cannot be trusted makes a full run.
@Suite("Posts: incremental runs")
struct PostsIncrementalTests {
    static let now = ISO8601.date(from: "2026-06-01T00:00:00Z")!

    static func post(_ title: String, date: String = "2026-01-02", sections: [String] = []) -> String {
        "---\ntitle: \(title)\ndate: \(date)\n---\nAbout \(title).\n" + sections.map { "\n## \($0)\n\nText of \($0).\n" }.joined()
    }

    /// A run over `folder`'s `content/` in `mode` with `state`: what it sent, as items, deletions and its state.
    static func run(_ folder: Folder, mode: SyncMode = .full, state: SyncState? = nil, now: Date = now, site: String? = nil) async throws -> IncrementalRun {
        var context = folder.context(domain: "com.blog", now: now)
        context.mode = mode
        context.state = state
        let plugin = try PostsSource(options: .init(directory: "content", flavor: "hugo", site: site, sections: "h2"), context: context)
        return await IncrementalRun(of: plugin)
    }

    @Test func onlyChangedFilesAreSentAgainAndGoneOnesDeleted() async throws {
        let folder = try Folder()
        try folder.write("content/posts/a.md", Self.post("Alpha", sections: ["One", "Two"]))
        try folder.write("content/posts/b.md", Self.post("Beta"))
        try folder.write("content/posts/c.md", Self.post("Gamma"))
        let full = try await Self.run(folder)
        #expect(full.items.keys.sorted() == ["posts/a", "posts/a#one", "posts/a#two", "posts/b", "posts/c"])
        let first = try #require(full.state)

        let nothing = try await Self.run(folder, mode: .incremental, state: first)
        #expect(nothing.items.isEmpty && nothing.deleted.isEmpty && nothing.state == first, "nothing changed: nothing sent, the same state")

        try folder.write("content/posts/a.md", Self.post("Alpha", sections: ["One"]))
        try folder.write("content/posts/b.md", Self.post("Beta again"))
        try FileManager.default.removeItem(atPath: folder.path("content/posts/c.md"))
        try folder.write("content/posts/d.md", Self.post("Delta"))
        let changed = try await Self.run(folder, mode: .incremental, state: first)
        #expect(changed.error == nil)
        #expect(changed.items == ["posts/a": "Alpha", "posts/a#one": "One", "posts/b": "Beta again", "posts/d": "Delta"])
        #expect(changed.deleted == ["posts/a#two", "posts/c"], "a section gone and a file gone")

        // Rewritten with the same bytes: read (its time changed) but not sent again.
        let second = try #require(changed.state)
        try folder.write("content/posts/d.md", Self.post("Delta"))
        let touched = try await Self.run(folder, mode: .incremental, state: second)
        #expect(touched.items.isEmpty && touched.deleted.isEmpty)
    }

    /// A file of the same size and modification time is not read at all: the state is trusted for it.
    @Test func aFileOfTheSameSizeAndTimeIsNotRead() async throws {
        let folder = try Folder()
        try folder.write("content/posts/a.md", Self.post("Alpha"))
        let full = try await Self.run(folder)
        let path = folder.path("content/posts/a.md")
        var info = stat()
        #expect(stat(path, &info) == 0)
        try folder.write("content/posts/a.md", Self.post("Alpho"))
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0, "the modification time put back, to the nanosecond")
        let state = try #require(full.state)
        let run = try await Self.run(folder, mode: .incremental, state: state)
        #expect(run.items.isEmpty, "same size, same time: not read")
        #expect(try await Self.run(folder).items["posts/a"] == "Alpho", "a full run reads it")
    }

    @Test func aPostDatedLaterIsPublishedByTheFirstIncrementalRunAfterItsDate() async throws {
        let folder = try Folder()
        try folder.write("content/posts/soon.md", Self.post("Soon", date: "2026-07-01"))
        let full = try await Self.run(folder)
        #expect(full.items.isEmpty)
        let state = try #require(full.state)
        let later = try await Self.run(folder, mode: .incremental, state: state, now: ISO8601.date(from: "2026-07-02T00:00:00Z")!)
        #expect(later.items.keys.sorted() == ["posts/soon"])
    }

    @Test func aStateThatCannotBeTrustedMakesAFullRun() async throws {
        let folder = try Folder()
        try folder.write("content/posts/a.md", Self.post("Alpha"))
        try folder.write("content/posts/_index.md", "---\ntitle: Posts\n---\n")
        try folder.write("hugo.toml", "baseURL = 'https://blog.example/'\n")
        let full = try await Self.run(folder, site: "hugo.toml")
        let state = try #require(full.state)

        let garbage = try await Self.run(folder, mode: .incremental, state: SyncState(json: Data("[1]".utf8)), site: "hugo.toml")
        #expect(garbage.error is SyncStateUnusable)
        try folder.write("hugo.toml", "baseURL = 'https://blog.example/en/'\n")
        let resettled = try await Self.run(folder, mode: .incremental, state: state, site: "hugo.toml")
        #expect("\(resettled.error.map { "\($0)" } ?? "")".contains("the options or the site's configuration changed"))
        try folder.write("hugo.toml", "baseURL = 'https://blog.example/'\n")
        try folder.write("content/posts/_index.md", "---\ntitle: Posts\ncascade: { build: { render: never } }\n---\n")
        let cascaded = try await Self.run(folder, mode: .incremental, state: state, site: "hugo.toml")
        #expect("\(cascaded.error.map { "\($0)" } ?? "")".contains("the section page posts/_index.md changed"))
    }
}
