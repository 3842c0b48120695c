import Foundation
import Logging
import PluginAPI
import PluginConformance
@testable import PostsPlugin
import Testing

/// The plugin over sites shaped as Jekyll, Hugo and Zola lay them out (`Fixtures/Sites`), each convention checked on
/// what the item becomes.
@Suite("Posts as Jekyll, Hugo and Zola publish them")
struct PostsFlavorTests {
    static let sites = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Sites")
    static let now = ISO8601.date(from: "2026-11-23T12:00:00Z")!

    /// The items of a run over `site`'s `directory`, by identifier, and the rejections.
    func run(_ directory: String, options: (inout PostsSource.Options) -> Void = { _ in }) async throws -> (items: [String: SearchableItem], rejections: [String: String]) {
        let context = PluginContext(
            source: "blog", partition: nil, domain: "com.example.blog", deepLink: nil, baseDirectory: Self.sites.path,
            logger: .init(label: "test") { _ in SwiftLogNoOpLogHandler() }, now: Self.now
        )
        var settings = PostsSource.Options(directory: directory)
        options(&settings)
        let run = await PluginConformance.items(of: try PostsSource(options: settings, context: context))
        #expect(run.error == nil)
        #expect(run.violations.isEmpty, "\(run.violations)")
        let items = Dictionary(run.items.map { ($0.uniqueIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(items.count == run.items.count, "identifiers are unique")
        return (items, Dictionary(context.rejections.examples.map { ($0.what, $0.reason) }, uniquingKeysWith: { first, _ in first }))
    }

    @Test func jekyll() async throws {
        let site = try await run("jekyll") {
            $0.flavor = "jekyll"  // detected, about.md would read as Hugo's: only _posts and dated names say Jekyll
            $0.baseURL = "https://jekyll.example"
            // The folder is the site's root: its _config.yml (permalink: pretty) is read by itself.
        }

        #expect(site.items.keys.sorted() == ["2015/12/01/dotted", "about.html", "news/community/2016/happy-new-year", "release/2015/10/26/jekyll-3-0-released"])
        let released = try #require(site.items["release/2015/10/26/jekyll-3-0-released"])
        #expect(released.title == "Jekyll 3.0 Released")
        #expect(released.contentDescription == "The much-anticipated Jekyll 3.0 is here, with incremental regeneration, Liquid profiling and more. Read the /docs/upgrading/ guide.",
                "Liquid tags, the highlight block and the reference definition are not prose; the reference link keeps its text")
        #expect(released.keywords == ["news", "releases", "release"], "tags split on spaces, then the category")
        #expect(released.authorNames == ["parkr"])
        #expect(released.displayName == nil, "authors and dates are fields of their own, not a byline")
        #expect(released.contentCreationDate == ISO8601.date(from: "2015-10-26T17:00:00Z"), "the front matter's date, at its written offset")
        #expect(released.contentModificationDate == ISO8601.date(from: "2015-11-02T16:00:00Z"), "last_modified_at (jekyll-last-modified-at)")
        #expect(released.contentURL == "https://jekyll.example/release/2015/10/26/jekyll-3-0-released/")

        let newYear = try #require(site.items["news/community/2016/happy-new-year"], "the post's own permalink; :categories are the folder above _posts and the front matter's, lowercased")
        #expect(newYear.keywords == ["news", "Community"], "the folder above _posts is a category")
        #expect(newYear.authorNames == ["Ana", "Bo"])
        #expect(newYear.contentCreationDate == ISO8601.date(from: "2016-01-01T00:00:00Z"), "the file name's date, midnight in the site's zone (UTC)")
        #expect(newYear.contentModificationDate == nil, "none written, none made up")

        let dotted = try #require(site.items["2015/12/01/dotted"], "front matter closed by '...'")
        #expect(dotted.title == "Dotted", "title: ~ is no title: the slug makes one")
        #expect(dotted.contentDescription == "Front matter closed by three dots.")

        #expect(site.items["about.html"]?.contentDescription == "We write about static sites.", "a page outside _posts is published at its path")
        #expect(site.rejections.keys.sorted() == ["_posts/notes.md"])
        #expect(site.rejections["_posts/notes.md"]?.contains("named YYYY-MM-DD-title.md") == true)
    }

    /// What Jekyll publishes, read as Ruby reads it: Psych's timestamps (one-digit hours; no zone is UTC), Time.parse
    /// for the rest (the offset after a repeated year ignored), one-digit months in file names, a permalink without
    /// its leading slash, a key written twice.
    @Test func jekyllFrontMatterIsReadAsRubyReadsIt() async throws {
        let site = try await run("jekyll-as-ruby-reads") { $0.timeZone = "Europe/Paris" }
        #expect(site.items.keys.sorted() == [
            "2017/02/05/one-digit-month.html", "2020/01/02/twice.html", "2023/01/29/repeated-year.html", "2023/12/31/quoted.html",
            "2024/01/01/no-zone.html", "2024/03/21/one-digit-hour.html", "my_category/post",
        ])
        #expect(site.items["2024/03/21/one-digit-hour.html"]?.contentCreationDate == ISO8601.date(from: "2024-03-21T04:00:00Z"))
        #expect(site.items["2023/01/29/repeated-year.html"]?.contentCreationDate == ISO8601.date(from: "2023-01-29T22:30:22Z"), "23:30:22 in Paris, not 07:30 the next day at -08:00")
        #expect(site.items["2024/01/01/no-zone.html"]?.contentCreationDate == ISO8601.date(from: "2023-12-31T23:30:00Z"), "a Psych timestamp without a zone is UTC (00:30 in Paris, hence the URL)")
        #expect(site.items["2023/12/31/quoted.html"]?.contentCreationDate == ISO8601.date(from: "2023-12-31T22:30:00Z"), "quoted: 23:30 in Paris")
        #expect(site.items["2017/02/05/one-digit-month.html"]?.title == "One-digit month and day")
        #expect(site.items["2020/01/02/twice.html"]?.title == "Second")
        #expect(site.rejections["_posts/2023-02-28-no-such-day.md"]?.contains("2023-02-30 is not a day of the calendar") == true, "\(site.rejections)")
        #expect(site.rejections["_posts/2023-02-01-late-hour.md"]?.contains("is not a time of day") == true, "\(site.rejections)")
    }

    @Test(arguments: [
        // Psych's timestamps, written plain: no zone is UTC.
        ("2024-03-21 4:00:00 +0000", true, "2024-03-21T04:00:00Z"), ("2024-3-1 04:00:00.5 -8", true, "2024-03-01T12:00:00.500Z"),
        ("2024-03-21T04:00:00+05:30", true, "2024-03-20T22:30:00Z"), ("2024-03-21 04:00:00", true, "2024-03-21T04:00:00Z"),
        ("2024-03-21 04:00:00 +5:30", true, "2024-03-20T22:30:00Z"),
        // Quoted, the same text goes to Time.parse: no zone is the site's.
        ("2024-03-21 04:00:00", false, "2024-03-21T03:00:00Z"),
        // Time.parse: a bare date, a time without seconds, the zones Ruby knows right after the time, the rest ignored.
        ("2024-03-21", true, "2024-03-20T23:00:00Z"), ("2024-03-21 04:00", true, "2024-03-21T03:00:00Z"), ("2024-03-21 04:00 utc", true, "2024-03-21T04:00:00Z"),
        ("2024-03-21 10:00:00 EST", true, "2024-03-21T15:00:00Z"), ("2024-03-21 10:00:00 +08", true, "2024-03-21T02:00:00Z"),
        ("2024-03-21 10:5", true, "2024-03-21T09:05:00Z"), ("2024-03-21T 10:00:00", true, "2024-03-21T09:00:00Z"),
        ("2024-03-21 10:00 +8", true, "2024-03-21T09:00:00Z"), ("2024-03-21 10:00 UTC+8", true, "2024-03-21T09:00:00Z"),
        ("2023-01-29 18:30:22 2023 -0800", true, "2023-01-29T17:30:22Z"), ("2024-03-21 garbage", true, "2024-03-20T23:00:00Z"),
    ])
    func jekyllDatesAsRubyReadsThem(text: String, plain: Bool, instant: String) throws {
        let date = try JekyllDate.parse(text, zone: TimeZone(identifier: "Europe/Paris")!, isYAMLTimestamp: plain)
        #expect(ISO8601.string(from: date) == instant)
    }

    @Test(arguments: [
        "", "2024", "2024-13-01", "2024-02-30 10:00:00", "2024-03-21 24:00:00", "2024-03-21 10:60:00", "24-03-21", "2024-003-21",
        "2024-03-21 123:00", "2024-03-21 10:00:61", String(repeating: "2024-03-21 ", count: 10),
    ])
    func jekyllDatesRubyWouldNotReadOrWouldRollOverAreRefused(text: String) {
        #expect(throws: ISO8601.ParseError.self) { try JekyllDate.parse(text, zone: .gmt, isYAMLTimestamp: true) }
    }

    /// The site's own configuration decides the URLs: Hugo's permalinks by section and uglyURLs, Jekyll's permalink,
    /// zone and address, Zola's address; the source's options still win.
    @Test func theSitesConfigurationDecidesTheURLs() async throws {
        let folder = try Folder()
        try folder.write("hugo/hugo.yml", """
            baseURL: https://blog.example
            Permalinks:
              posts: /:year/:month/:day/:filename/
              Notes: /:section/:slug/
            uglyurls: true
            """)
        try folder.write("hugo/content/posts/Release Notes.md", "---\ntitle: Release\ndate: 2019-02-11T10:00:00Z\n---\nText.\n")
        try folder.write("hugo/content/notes/n.md", "---\ntitle: A Note\nslug: my-note\n---\nText.\n")
        try folder.write("hugo/content/about.md", "---\ntitle: About\n---\nText.\n")
        func items(_ options: PostsSource.Options) async throws -> [String: String] {
            let run = await PluginConformance.items(of: try PostsSource(options: options, context: folder.context(now: Self.now)))
            #expect(run.error == nil)
            return Dictionary(uniqueKeysWithValues: run.items.map { ($0.uniqueIdentifier, $0.contentURL ?? "") })
        }
        #expect(try await items(.init(directory: "hugo/content", flavor: "hugo", site: "hugo/hugo.yml")) == [
            "2019/02/11/release-notes.html": "https://blog.example/2019/02/11/release-notes.html", "notes/my-note.html": "https://blog.example/notes/my-note.html",
            "about.html": "https://blog.example/about.html",
        ])
        #expect(try await items(.init(directory: "hugo/content", flavor: "hugo", baseURL: "https://other.example", site: "hugo/hugo.yml"))["about.html"]
            == "https://other.example/about.html", "an option wins")

        try folder.write("jekyll/_config.yml", """
            url: https://jekyll.example
            baseurl: /blog
            permalink: /:categories/:title/
            collections: {posts: {permalink: "/:year/:title:output_ext"}}
            timezone: America/New_York
            """)
        try folder.write("jekyll/_posts/2020-01-01-hello.md", "---\ntitle: Hello\ndate: 2020-01-02 03:00:00 +0000\n---\nText.\n")
        #expect(try await items(.init(directory: "jekyll", flavor: "jekyll", site: "jekyll/_config.yml")) == [
            "2020/hello.html": "https://jekyll.example/blog/2020/hello.html",
        ])

        try folder.write("zola/config.toml", "base_url = \"https://zola.example\"\n")
        try folder.write("zola/content/blog/post.md", "+++\ntitle = \"Post\"\n[extra]\n+++\nText.\n")
        #expect(try await items(.init(directory: "zola/content", flavor: "zola", site: "zola/config.toml")) == ["blog/post": "https://zola.example/blog/post/"])
    }

    @Test(arguments: [
        ("site.txt", "", "is not a site configuration"), ("hugo.toml", "baseURL = [", "TOML syntax"),
        ("hugo.yaml", "permalinks: {posts: '/:sections[1:]/:slug/'}", "':sections' is not a permalink token"),
        ("hugo.yaml", "permalinks: {posts: /:nonsense/}", "':nonsense' is not a permalink token"), ("_config.yml", "timezone: Mars/Olympus", "Mars/Olympus"),
        ("hugo.yaml", "baseURL: example.com", "baseURL"), ("config.toml", nil, "cannot read"),
    ] as [(String, String?, String)])
    func aBrokenSiteConfigurationIsTheSiteOptionsProblem(name: String, text: String?, message: String) throws {
        let folder = try Folder()
        if let text { try folder.write("site/\(name)", text) }
        try folder.write("site/content/a.md", "---\ntitle: A\n---\nText.\n")
        #expect {
            try PostsSource(options: .init(directory: "site/content", site: "site/\(name)"), context: folder.context())
        } throws: { error in
            (error as? PluginOptionError)?.option == "site" && "\(error)".contains(message)
        }
    }

    @Test func hugoPermalinkTokensTakeTheDateInTheSitesZone() {
        let date = ISO8601.date(from: "2019-02-11T23:30:00Z")!
        let values = HugoPermalink.values(date: date, zone: TimeZone(identifier: "Europe/Paris")!, sections: ["posts", "2019"], title: "Hello World", slug: nil, filename: "hello")
        let pattern = try? HugoPermalink.validating("/:sections/:yearday/:weekday-:weekdayname/:monthname/:slugorfilename/:title/").get()
        #expect(pattern?.path(with: values) == "/posts/2019/43/2-Tuesday/February/hello/hello-world/", "23:30 UTC on Monday the 42nd day is Tuesday in Paris")
    }

    @Test func jekyllPermalinksAreConfigurable() async throws {
        let date = try await run("jekyll") { $0.permalink = "date" }
        #expect(date.items["release/2015/10/26/jekyll-3-0-released.html"] != nil)
        let custom = try await run("jekyll") { $0.permalink = "/news/:year/:month/:day/:title/" }
        #expect(custom.items["news/2015/10/26/jekyll-3-0-released"] != nil, "the URL jekyllrb.com gives this post")
        let future = try await run("jekyll") { $0.future = true }
        #expect(future.items["2099/01/01/from-the-future"] != nil, "future: true publishes it, at the site's permalink (pretty)")
    }

    @Test func hugo() async throws {
        let site = try await run("hugo/content")

        #expect(site.items.keys.sorted() == ["custom/place", "posts", "posts/bundled-slug", "posts/first-post", "posts/json-post", "posts/mixed-case-name"])
        let first = try #require(site.items["posts/first-post"])
        #expect(first.title == "First post")
        #expect(first.contentDescription == "A description from the front matter.")
        #expect(first.keywords == ["hugo", "yaml", "static", "sites"], "keywords is a comma-separated list")
        #expect(first.authorNames == ["Carla"], "an author mapping's name")
        #expect(first.contentCreationDate == ISO8601.date(from: "2024-02-03T08:30:00Z"))
        #expect(first.contentModificationDate == ISO8601.date(from: "2024-02-10T11:00:00Z"), "lastmod")

        let bundle = try #require(site.items["posts/bundled-slug"], "a bundle is named after its folder, and slug replaces it")
        #expect(bundle.title == "A page bundle")
        #expect(bundle.contentDescription == "Shortcode text is what Hugo shows, so it stays; the tags go.")
        #expect(bundle.keywords == ["toml", "Guides"])
        #expect(bundle.authorNames == ["Dev One", "Dev Two"])
        #expect(bundle.contentCreationDate == ISO8601.date(from: "2024-03-01T08:00:00Z"))

        let json = try #require(site.items["posts/json-post"])
        #expect(json.title == "Written in JSON")
        #expect(json.contentDescription == "A post whose front matter is a JSON object.")
        #expect(json.keywords == ["json"])

        #expect(site.items["posts"]?.title == "Posts", "a section's _index.md is the section's page")
        let moved = try #require(site.items["custom/place"], "url: replaces the path")
        #expect(moved.expirationDate == ISO8601.date(from: "2099-12-31T00:00:00Z"), "expiryDate is the item's expiration")
        #expect(site.rejections.keys.sorted() == ["posts/broken.md"])
        #expect(site.rejections["posts/broken.md"]?.hasPrefix("line 2: TOML syntax:") == true, "\(site.rejections)")
    }

    @Test func zola() async throws {
        let site = try await run("zola/content")

        #expect(site.items.keys.sorted() == ["about-us", "blog", "blog/cafe-creme", "blog/future-post", "blog/spring-notes"])
        let spring = try #require(site.items["blog/spring-notes"], "the date prefix is the date and leaves the slug")
        #expect(spring.keywords == ["seasons", "spring", "garden"], "every taxonomy's terms, taxonomies by name")
        #expect(spring.authorNames == ["Zoé"], "extra.author")
        #expect(spring.contentCreationDate == ISO8601.date(from: "2024-03-05T00:00:00Z"), "the file name's date")
        #expect(spring.contentDescription == "What grows in March.")
        #expect(site.items["blog/cafe-creme"]?.authorNames == ["Léa"], "accents leave the slug, not the author")
        #expect(site.items["blog/cafe-creme"]?.contentModificationDate == ISO8601.date(from: "2024-06-01T08:00:00Z"), "updated, in the site's zone")
        #expect(site.items["blog/future-post"] != nil, "Zola publishes future posts")
        #expect(site.items["about-us"]?.title == "About us", "path: replaces the URL")
        #expect(site.rejections.isEmpty)
    }

    @Test func aNamedFlavorAppliesToEveryFile() async throws {
        // Without [extra] or [taxonomies], this Zola post reads as Hugo (future posts skipped); named, it reads as Zola.
        let folder = try Folder()
        try folder.write("content/2099-01-01_plans.md", "+++\ntitle = \"Plans\"\n+++\nLater.\n")
        func identifiers(_ flavor: String?) async throws -> [String] {
            let plugin = try PostsSource(options: .init(directory: "content", flavor: flavor), context: folder.context(now: Self.now))
            return await PluginConformance.items(of: plugin).items.map(\.uniqueIdentifier)
        }
        #expect(try await identifiers(nil) == ["2099-01-01_plans"])
        #expect(try await identifiers("zola") == ["plans"])
        #expect(try await identifiers("jekyll") == ["2099-01-01_plans.html"], "Jekyll dates names with '-' only: a page at its path")
    }
}
