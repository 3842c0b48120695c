import Foundation
import PluginAPI
import PluginConformance
@testable import PostsPlugin
import Synchronization
import Testing

@Suite("The posts plugin")
struct PostsPluginTests {
    /// A folder of posts, good and bad, and a folder outside it that must never be read; the folders live as
    /// long as this value.
    struct Blog {
        var folder: Folder
        var outside: Folder
        var plugin: PostsSource
        var context: PluginContext
    }

    func blog() throws -> Blog {
        let folder = try Folder(), outside = try Folder()
        try folder.write("posts/hello.md", """
            ---
            title: "Hello, cheese lovers"
            summary: Our first post.
            slug: hello-cheese
            date: 2026-11-01
            expires: 2027-06-30T00:00:00Z
            tags:
              - cheese
              - 'news'
            ---
            # Hello

            The body.
            """)
        try folder.write("posts/2026/aged.markdown", """
            ---
            title: Aged cheddar
            tags: [cheddar, aged, "uk"]
            ---
            # Aged cheddar

            ![a photo](cheddar.jpg)

            A *sharp* cheese from [Somerset](https://example.com/somerset), aged `18` months
            in caves.

            Second paragraph.
            """)
        try folder.write("posts/draft.md", "---\ntitle: Not yet\ndraft: true\n---\nSoon.\n")
        try folder.write("posts/plain.md", "Just a paragraph, no front matter.\n")
        try folder.write("posts/unclosed.md", "---\ntitle: Broken\n\nNo closing line.\n")
        try folder.write("posts/bad-date.md", "---\ntitle: Bad date\ndate: tomorrow\n---\nBody.\n")
        try folder.write("posts/bad-line.md", "---\ntitle: Bad\n  indented: nonsense\n---\nBody.\n")
        try folder.write("posts/notes.txt", "not a post")
        try folder.write("posts/huge.md", "---\ntitle: Huge\n---\n" + String(repeating: "x", count: 5000))
        try outside.write("secret.md", "---\ntitle: SECRET\n---\nSecret.\n")
        try outside.write("dir/inside.md", "---\ntitle: SECRET TOO\n---\nSecret.\n")
        try FileManager.default.createSymbolicLink(atPath: folder.path("posts/escape.md"), withDestinationPath: outside.path("secret.md"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("posts/linked"), withDestinationPath: outside.path("dir"))
        let context = folder.context(domain: "com.example.blog", source: "blog")
        let options = PostsSource.Options(directory: "posts", extensions: nil, maxFileBytes: 4096)
        return Blog(folder: folder, outside: outside, plugin: try PostsSource(options: options, context: context), context: context)
    }

    @Test func publishedPostsBecomeItemsAndBrokenOnesAreReportedAndSkipped() async throws {
        let blog = try blog()

        let run = await PluginConformance.items(of: blog.plugin)

        #expect(run.error == nil)
        #expect(run.violations.isEmpty, "\(run.violations)")
        #expect(run.items.map(\.uniqueIdentifier) == ["2026/aged", "hello-cheese", "plain"])
        let hello = try #require(run.items.first { $0.uniqueIdentifier == "hello-cheese" })
        #expect(hello.title == "Hello, cheese lovers")
        #expect(hello.contentDescription == "Our first post.")
        #expect(hello.keywords == ["cheese", "news"])
        #expect(hello.expirationDate == ISO8601.date(from: "2027-06-30T00:00:00Z"))
        #expect(hello.domainIdentifier == "com.example.blog")
        let aged = try #require(run.items.first { $0.uniqueIdentifier == "2026/aged" })
        #expect(aged.contentDescription == "A sharp cheese from Somerset, aged 18 months in caves.")
        #expect(aged.keywords == ["cheddar", "aged", "uk"])
        let plain = try #require(run.items.first { $0.uniqueIdentifier == "plain" })
        #expect(plain.title == "Plain", "a post without a title is named after its file, as Jekyll does")
        #expect(plain.contentDescription == "Just a paragraph, no front matter.")
        // unclosed, bad-date, bad-line, huge and the escaping link; the linked folder is not entered.
        #expect(blog.context.rejections.count == 5)
        #expect(!run.items.contains { $0.title?.contains("SECRET") == true })
    }

    @Test func brokenFrontMatterIsReportedWithItsLine() throws {
        let folder = try Folder()
        try folder.write("posts/bad-date.md", "---\ntitle: Bad date\ndate: tomorrow\n---\nBody.\n")
        try folder.write("posts/twice.md", "---\ntitle: A\ntitle: B\n---\n")
        try folder.write("posts/open-quote.md", "---\ntitle: \"never closed\n---\n")
        let plugin = try PostsSource(options: .init(directory: "posts", extensions: nil, maxFileBytes: nil), context: folder.context())
        #expect(throws: (any Error).self) { try plugin.item(at: "bad-date.md", in: plugin.openFolder()) }
        do { _ = try plugin.item(at: "bad-date.md", in: plugin.openFolder()) } catch { #expect("\(error)".hasPrefix("line 3: 'date' must be a date")) }
        do { _ = try plugin.item(at: "twice.md", in: plugin.openFolder()) } catch { #expect("\(error)" == "line 3: duplicate key 'title': each key appears once in a mapping") }
        do { _ = try plugin.item(at: "open-quote.md", in: plugin.openFolder()) } catch { #expect("\(error)".hasPrefix("line 2: YAML syntax: found unexpected end of stream while scanning a quoted scalar")) }
    }

    @Test func frontMatterIsReadAsYAML() throws {
        let folder = try Folder()
        try folder.write("posts/rich.md", """
            ---
            title: &t Rich front matter
            summary: >
              Folded over
              two lines.
            params:
              author: { name: Ana, links: [a, b] }
              nested: { deeper: { still: true } }
            tags: [
              cheese,
              "wine"
            ]
            slug: *t
            ...
            # Body

            Text.
            """)
        try folder.write("posts/null-title.md", "---\ntitle: ~\n---\nBody.\n")
        try folder.write("posts/yes-draft.md", "---\ntitle: Draft?\ndraft: yes\n---\nBody.\n")
        try folder.write("posts/list.md", "---\n- not\n- a mapping\n---\n")
        let plugin = try PostsSource(options: .init(directory: "posts", extensions: nil, maxFileBytes: nil), context: folder.context())
        let posts = try plugin.openFolder()
        let rich = try #require(try plugin.item(at: "rich.md", in: posts))
        #expect(rich.title == "Rich front matter")
        #expect(rich.uniqueIdentifier == "rich-front-matter", "an alias reads its anchor; Hugo lowercases the slug and hyphenates spaces")
        #expect(rich.contentDescription == "Folded over two lines.")
        #expect(rich.keywords == ["cheese", "wine"])
        #expect(try plugin.item(at: "null-title.md", in: posts)?.title == "Null Title", "~ is no title")
        let draft = #expect(throws: (any Error).self) { try plugin.item(at: "yes-draft.md", in: posts) }
        #expect(draft.map { "\($0)" } == "line 3: 'draft' must be true or false: 'yes' is not a boolean in YAML 1.2; write true or false")
        let list = #expect(throws: (any Error).self) { try plugin.item(at: "list.md", in: posts) }
        #expect(list.map { "\($0)" } == "line 2: the front matter must be a mapping of keys to values")
    }

    @Test(arguments: [
        ("expires: 2013-05-06garbage", "something other than a time"),
        ("expires: 2027-02-30", "is not a day of the calendar"),
        ("expires: 2027-01-31T25:00:00Z", "is not a time of day"),
        ("expires: 2027-01-31 10:00", "the time must be HH:MM:SS"),
        ("expires: [2027-01-31]", "not a list or a mapping"),
    ])
    func aLooseDateIsRefusedNotGuessed(line: String, reason: String) throws {
        let folder = try Folder()
        try folder.write("posts/post.md", "---\ntitle: Dated\n\(line)\n---\nBody.\n")
        let plugin = try PostsSource(options: .init(directory: "posts", extensions: nil, maxFileBytes: nil), context: folder.context())
        do {
            let item = try plugin.item(at: "post.md", in: plugin.openFolder())
            Issue.record("read as \(String(describing: item?.expirationDate))")
        } catch {
            #expect("\(error)".hasPrefix("line 3: 'expires' must be a date") && "\(error)".contains(reason), "\(error)")
        }
    }

    @Test func aDateWithATimeAndZoneKeepsBoth() throws {
        let folder = try Folder()
        try folder.write("posts/post.md", "---\ntitle: Dated\nexpires: 2027-01-31 10:00:00 +0200\n---\nBody.\n")
        let plugin = try PostsSource(options: .init(directory: "posts", extensions: nil, maxFileBytes: nil), context: folder.context())
        #expect(try plugin.item(at: "post.md", in: plugin.openFolder())?.expirationDate == ISO8601.date(from: "2027-01-31T08:00:00Z"))
    }

    @Test func aDateWithoutAZoneIsReadInTheSitesZone() throws {
        let folder = try Folder()
        try folder.write("posts/post.md", "---\ntitle: Dated\nexpires: 2027-07-31 10:00:00\n---\nBody.\n")
        try folder.write("posts/day.md", "---\ntitle: Day\nexpires: 2027-07-31\n---\nBody.\n")
        let utc = try PostsSource(options: .init(directory: "posts"), context: folder.context())
        #expect(try utc.item(at: "post.md", in: utc.openFolder())?.expirationDate == ISO8601.date(from: "2027-07-31T10:00:00Z"))
        let paris = try PostsSource(options: .init(directory: "posts", timeZone: "Europe/Paris"), context: folder.context())
        #expect(try paris.item(at: "post.md", in: paris.openFolder())?.expirationDate == ISO8601.date(from: "2027-07-31T08:00:00Z"))
        #expect(try paris.item(at: "day.md", in: paris.openFolder())?.expirationDate == ISO8601.date(from: "2027-07-30T22:00:00Z"))
    }

    @Test func aMissingFolderFailsTheRun() async throws {
        let folder = try Folder()
        let plugin = try PostsSource(options: .init(directory: "nowhere", extensions: nil, maxFileBytes: nil), context: folder.context())
        let run = await PluginConformance.items(of: plugin)
        #expect("\(run.error.map { "\($0)" } ?? "")".contains("cannot open the folder"))
    }

    /// A link inside the folder is retargeted, over and over, between a folder inside and one outside, while the
    /// plugin runs: what is checked must be what is read, so the outside post never appears.
    @Test func aLinkRetargetedDuringRunsNeverExposesAnOutsideFile() async throws {
        let folder = try Folder(), outside = try Folder()
        try outside.write("sub/post.md", "---\ntitle: SECRET\n---\nSecret.\n")
        try folder.write("posts/.inside/post.md", "---\ntitle: Inside\n---\nPublic.\n")
        try FileManager.default.createSymbolicLink(atPath: folder.path("posts/sub"), withDestinationPath: ".inside")
        let plugin = try PostsSource(options: .init(directory: "posts", extensions: nil, maxFileBytes: nil), context: folder.context())

        let stop = Mutex(false), stopped = DispatchSemaphore(value: 0)
        let link = folder.path("posts/sub"), staging = folder.path("posts/.next"), outsideTarget = outside.path("sub")
        Thread.detachNewThread {
            var toOutside = true
            while !stop.withLock({ $0 }) {
                unlink(staging)
                symlink(toOutside ? outsideTarget : ".inside", staging)
                rename(staging, link)
                toOutside.toggle()
            }
            stopped.signal()
        }
        var titles: [String] = []
        for _ in 0..<150 {
            titles += await PluginConformance.items(of: plugin).items.compactMap(\.title)
        }
        stop.withLock { $0 = true }
        stopped.wait()
        #expect(!titles.contains("SECRET"), "an outside file was read")
        // Whether a run met the link pointing inside depends on the scheduler; once it stays there, it is read.
        unlink(link)
        symlink(".inside", link)
        #expect(await PluginConformance.items(of: plugin).items.compactMap(\.title) == ["Inside"], "the inside target is read")
    }

    @Test func aPipeOrALinkLoopNeitherHangsNorLoops() async throws {
        let folder = try Folder()
        try folder.write("posts/good.md", "---\ntitle: Good\n---\nBody.\n")
        #expect(mkfifo(folder.path("posts/pipe.md"), 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.path("posts/linked-pipe.md"), withDestinationPath: "pipe.md")
        try FileManager.default.createSymbolicLink(atPath: folder.path("posts/loop"), withDestinationPath: ".")
        let context = folder.context()
        let plugin = try PostsSource(options: .init(directory: "posts", extensions: nil, maxFileBytes: nil), context: context)
        let run = await PluginConformance.items(of: plugin)
        #expect(run.items.compactMap(\.title) == ["Good"])
        #expect(context.rejections.examples.map(\.reason) == ["not a regular file"])
    }

    /// Two files a generator would publish at one URL (Let's Encrypt has three posts with one slug): the later one
    /// is rejected with a reason naming both, never silently overwriting the first.
    @Test func twoFilesPublishedAtOneURLAreNeverMergedSilently() async throws {
        let folder = try Folder()
        try folder.write("posts/a-first.md", "---\ntitle: First\nslug: report\n---\nOne.\n")
        try folder.write("posts/b-second.md", "---\ntitle: Second\nslug: report\n---\nTwo.\n")
        try folder.write("posts/report.md", "---\ntitle: Third\n---\nThree.\n")
        let context = folder.context()
        let plugin = try PostsSource(options: .init(directory: "posts", extensions: nil, maxFileBytes: nil), context: context)
        let run = await PluginConformance.items(of: plugin)
        #expect(run.items.map(\.title) == ["First"])
        #expect(context.rejections.count == 2)
        #expect(context.rejections.examples.map(\.what) == ["b-second.md", "report.md"])
        #expect(context.rejections.examples.allSatisfy { $0.reason == "published at 'report', as a-first.md is (read first); give one of them its own permalink or slug" },
                "\(context.rejections.examples)")
    }

    @Test func itConforms() async throws {
        let blog = try blog()
        #expect(PluginConformance.declaration(of: PostsSource.self).isEmpty)
        #expect(PluginConformance.refuses(PostsSource.self, invalid: [
            .init(directory: "", extensions: nil, maxFileBytes: nil),
            .init(directory: "posts", extensions: [], maxFileBytes: nil),
            .init(directory: "posts", extensions: ["../md"], maxFileBytes: nil),
            .init(directory: "posts", extensions: nil, maxFileBytes: 0),
            .init(directory: "posts", flavor: "gatsby"),
            .init(directory: "posts", permalink: "/:year/:nonsense/"),
            .init(directory: "posts", permalink: ""),
            .init(directory: "posts", timeZone: "Mars/Olympus"),
            .init(directory: "posts", timeZone: "CEST"),
            .init(directory: "posts", baseURL: "example.com"),
            .init(directory: "posts", baseURL: "https://example.com/?q=1"),
        ]).isEmpty)
        #expect(await PluginConformance.honoursCancellation(blog.plugin).isEmpty)
        #expect(await PluginConformance.honoursCancellation(blog.plugin, afterItems: 1).isEmpty)
    }
}
