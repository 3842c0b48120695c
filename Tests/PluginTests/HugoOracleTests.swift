import Foundation
import PluginAPI
import PluginConformance
@testable import PostsPlugin
import Testing

/// A Hugo site's own settings (its `permalinks`, `markup.goldmark.parser.autoHeadingIDType` and `autoHeadingID`),
/// with Debian's Hugo as the oracle: the site is built by `hugo`, and every URL the plugin gives a page or a section
/// is a page Hugo wrote with a heading of that id, and the other way round.
///
/// Headings here avoid what Hugo 0.111 reads otherwise than Hugo since 0.120 (links, emphasis, inline HTML,
/// entities and typographer dashes: ``PostsSectionsTests``).
@Suite("Hugo's URLs and heading ids, judged by Hugo")
struct HugoOracleTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func site(in folder: Folder, markup: String) throws {
        try folder.write("site/hugo.toml", """
            baseURL = "https://docs.example/"
            title = "oracle"
            disableKinds = ["taxonomy", "term", "RSS", "sitemap", "home", "section", "404"]
            [permalinks]
            blog = "/:year/:month/:title/"
            \(markup)
            """)
        try folder.write("site/layouts/_default/single.html", "{{ .Content }}")
        try folder.write("site/layouts/_default/list.html", "{{ .Content }}")
        try folder.write("site/content/docs/install.md", """
            ---
            title: Install
            ---
            Text.

            ## Getting started
            Steps.
            ### Ünïcödé Straße 3.4.0
            More.
            ## Getting started
            ### snake_case and C++ & C#
            ## Привет мир
            ## Ζωή
            ## Custom {#custom-id}
            ## 1.2.3 Release (beta)
            """)
        try folder.write("site/content/docs/guide/configure.md", """
            ---
            title: Configure
            ---
            ## What's new?
            ## Ports: 80/443
            ### Tab\tinside
            """)
        try folder.write("site/content/blog/news.md", "---\ntitle: News\ndate: 2024-03-05\n---\n## Release notes\nText.\n")
    }

    /// Every URL Hugo wrote, a page's and each of its headings' (`/docs/install/#getting-started`).
    static func hugoURLs(site: String) async throws -> Set<String> {
        try await GeneratorOracle("hugo").build(["--quiet", "--source", site, "--destination", site + "/public"], in: site)
        var urls = Set<String>()
        for (path, file) in GeneratorOracle.pages(in: site + "/public") {
            urls.insert(path)
            for id in try GeneratorOracle.headingIDs(of: file) { urls.insert(path + "#" + id) }
        }
        return urls
    }

    @Test(arguments: ["", "[markup.goldmark.parser]\nautoHeadingIDType = 'github-ascii'", "[markup.goldmark.parser]\nautoHeadingIDType = 'blackfriday'"])
    func everyURLAndAnchorIsOneHugoWrote(markup: String) async throws {
        let folder = try Folder()
        try Self.site(in: folder, markup: markup)
        let written = try await Self.hugoURLs(site: folder.path("site"))
        let run = await PluginConformance.items(of: try PostsSource(
            options: .init(directory: "site/content", flavor: "hugo", site: "site/hugo.toml", sections: "h3"), context: folder.context(now: Self.now)
        ))
        #expect(run.error == nil)
        let urls = Set(run.items.compactMap { $0.contentURL?.replacingOccurrences(of: "https://docs.example", with: "").removingPercentEncoding })
        #expect(urls == written, "only the plugin's: \(urls.subtracting(written).sorted()); only Hugo's: \(written.subtracting(urls).sorted())")
        #expect(urls.contains("/2024/03/news/#release-notes"), "\(urls.sorted())")
    }

    @Test func withoutAutomaticIDsOnlyExplicitOnesMakeSections() async throws {
        let folder = try Folder()
        try Self.site(in: folder, markup: "[markup.goldmark.parser]\nautoHeadingID = false")
        let written = try await Self.hugoURLs(site: folder.path("site"))
        let run = await PluginConformance.items(of: try PostsSource(
            options: .init(directory: "site/content", flavor: "hugo", site: "site/hugo.toml", sections: "h3"), context: folder.context(now: Self.now)
        ))
        let urls = Set(run.items.compactMap { $0.contentURL?.replacingOccurrences(of: "https://docs.example", with: "") })
        #expect(urls == written, "only the plugin's: \(urls.subtracting(written).sorted()); only Hugo's: \(written.subtracting(urls).sorted())")
        #expect(urls.filter { $0.contains("#") } == ["/docs/install/#custom-id"])
    }

    @Test func anUnknownIDTypeIsRefusedWithTheFile() throws {
        let folder = try Folder()
        try Self.site(in: folder, markup: "[markup.goldmark.parser]\nautoHeadingIDType = 'gitlab'")
        #expect {
            _ = try PostsSource(options: .init(directory: "site/content", flavor: "hugo", site: "site/hugo.toml"), context: folder.context(now: Self.now))
        } throws: { error in
            "\(error)".contains("hugo.toml: markup.goldmark.parser.autoHeadingIDType: 'gitlab' is not one of github, github-ascii, blackfriday")
        }
    }
}
