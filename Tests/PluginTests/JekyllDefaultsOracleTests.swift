import Foundation
import PluginConformance
@testable import PostsPlugin
import Testing

/// Jekyll's front matter defaults (`defaults:` in `_config.yml`), with Debian's Jekyll as the oracle: the site is
/// built by `jekyll build`, and every URL the plugin gives a post is a page Jekyll wrote, and the other way round.
/// Without Jekyll the test fails and says what to install (``GeneratorOracle``).
@Suite("Jekyll's front matter defaults, judged by Jekyll")
struct JekyllDefaultsOracleTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A site shaped as Homebrew's blog sets its permalinks: under `defaults:`, by type and by path, the later and more
    /// specific set winning, a post's own permalink above all.
    static func site(in folder: Folder) throws {
        try folder.write("site/_config.yml", """
            url: https://brew.example
            defaults:
              - scope: { path: "", type: posts }
                values: { permalink: "/:year/:month/:day/:title/", author: Team }
              - scope: { path: "_posts/releases" }
                values: { permalink: "/releases/:title/" }
              - scope: { path: "", type: posts }
                values: { category: news }
              - scope: { path: "", type: pages }
                values: { permalink: "/pages/:basename/" }
            """)
        try folder.write("site/_posts/2016-09-21-homebrew-1.0.0.md", "---\ntitle: Homebrew 1.0.0\n---\nText.\n")
        try folder.write("site/_posts/releases/2020-01-02-v2.md", "---\ntitle: Version 2\n---\nText.\n")
        try folder.write("site/_posts/2021-03-04-own.md", "---\ntitle: Its own\npermalink: /custom/own/\n---\nText.\n")
        try folder.write("site/_posts/2022-05-06-categorized.md", "---\ntitle: Categorized\npermalink: /:categories/:title/\n---\nText.\n")
    }

    /// The pages `jekyll build` wrote, as URL paths (`/2016/09/21/homebrew-1.0.0/`).
    static func jekyllPages(of source: String, into destination: String) async throws -> Set<String> {
        try await GeneratorOracle("jekyll").build(["build", "--quiet", "--disable-disk-cache", "--source", source, "--destination", destination], in: source)
        return Set(GeneratorOracle.pages(in: destination).keys)
    }

    @Test func everyPostsURLIsThePageJekyllWrote() async throws {
        let folder = try Folder()
        try Self.site(in: folder)
        let written = try await Self.jekyllPages(of: folder.path("site"), into: folder.path("_site"))
        let run = await PluginConformance.items(of: try PostsSource(
            options: .init(directory: "site", flavor: "jekyll", site: "site/_config.yml"), context: folder.context(now: Self.now)
        ))
        #expect(run.error == nil)
        let urls = Set(run.items.compactMap { $0.contentURL?.replacingOccurrences(of: "https://brew.example", with: "") })
        #expect(urls == written, "the plugin: \(urls.sorted()); Jekyll: \(written.sorted())")
        #expect(urls.contains("/2016/09/21/homebrew-1.0.0/") && urls.contains("/releases/v2/") && urls.contains("/custom/own/"), "\(urls.sorted())")
        #expect(urls.contains("/news/categorized/"), "a default category is the post's")
        let released = try #require(run.items.first { $0.title == "Homebrew 1.0.0" })
        #expect(released.authorNames == ["Team"], "a default author is the post's")
    }

    @Test func aMalformedDefaultsSetIsRefusedWithTheFile() throws {
        let folder = try Folder()
        try folder.write("site/_config.yml", "defaults:\n  - scope: { path: \"\" }\n")
        try folder.write("site/_posts/2016-09-21-a.md", "---\ntitle: A\n---\nText.\n")
        #expect(throws: (any Error).self) {
            _ = try PostsSource(options: .init(directory: "site", flavor: "jekyll", site: "site/_config.yml"), context: folder.context(now: Self.now))
        }
    }
}
