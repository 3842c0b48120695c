import Foundation
import PluginAPI
import PluginConformance
@testable import PostsPlugin
import Testing

/// Sections of documentation pages, as DocSearch and Pagefind index them: one item per heading, at the anchor the
/// page's generator gives it.
@Suite("Posts: sections at the generators' anchors")
struct PostsSectionsTests {
    static let anchors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Anchors")

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: anchors.appendingPathComponent(name), encoding: .utf8)
    }

    static func anchors(of markdown: String, _ flavor: SiteFlavor, hugo: HugoHeadings = HugoHeadings()) -> [String] {
        MarkdownSections.split(markdown[...], flavor: flavor, hugo: hugo, deepest: 3).sections.map(\.anchor)
    }

    /// The pairs of `ours` and `theirs` that differ, with their positions, for a readable failure.
    static func differences(_ ours: [String], _ theirs: [String]) -> [String] {
        (0..<max(ours.count, theirs.count)).compactMap { index in
            let (mine, expected) = (ours.indices.contains(index) ? ours[index] : "-", theirs.indices.contains(index) ? theirs[index] : "-")
            return mine == expected ? nil : "#\(index): \(mine) ≠ \(expected)"
        }
    }

    /// `<<quoted>>`: both typographers turn `<<` into `«` before they look for HTML, cmark reads `<quoted>` as an HTML tag
    /// first (a known difference: such a heading gets another anchor, whichever).
    static func isKnownDifference(_ difference: String) -> Bool { difference.hasPrefix("#35: ") && difference.hasSuffix(" ≠ quoted") }

    @Test func jekyllsAnchorsAreTheOnesJekyllWrites() throws {
        let expected = try Self.fixture("jekyll-4.3.1.ids").split(separator: "\n").map(String.init)
        let differences = Self.differences(Self.anchors(of: try Self.fixture("headings.md"), .jekyll), expected).filter { !Self.isKnownDifference($0) }
        #expect(differences.isEmpty, "\(differences)")
    }

    /// Hugo 0.111 (Debian's) made ids from a heading's source text; Hugo since 0.120 makes them from its plain text
    /// (`markup/goldmark/internal/render/context.go`, `TextPlain`: a link's or emphasis's first piece, inline HTML
    /// stripped, entities resolved, typographer dashes): where the two differ, the current one is expected. Each id
    /// type (`markup.goldmark.parser.autoHeadingIDType`) against the ids Hugo wrote with it.
    @Test(arguments: HugoHeadings.IDType.allCases)
    func hugosAnchorsAreTheOnesHugoWrites(_ type: HugoHeadings.IDType) throws {
        let file = type == .github ? "hugo-0.111.3.ids" : "hugo-0.111.3-\(type.rawValue).ids"
        var expected = try Self.fixture(file).split(separator: "\n").map(String.init)
        let sinceTextPlain: [String: String] = switch type {
        case .github, .githubASCII: [
            "installing-on-linux----the-easy-way": "installing-on-linux--the-easy-way",
            "link-texthttpsexamplecom": "link-text", "html-eminlineem": "html-inline", "fish-amp-chips": "fish--chips",
        ]
        case .blackfriday: ["link-text-https-example-com": "link-text", "html-em-inline-em": "html-inline", "fish-amp-chips": "fish-chips"]
        }
        expected = expected.map { sinceTextPlain[$0] ?? $0 }
        let markdown = try Self.fixture("headings.md")
        let differences = Self.differences(Self.anchors(of: markdown, .hugo, hugo: HugoHeadings(idType: type)), expected).filter { !Self.isKnownDifference($0) }
        #expect(differences.isEmpty, "\(differences)")
    }

    /// What the typographer puts in place of dashes stays in the id when it is text (etcd.io's `enDash: '--'` keeps
    /// `--data-dir`), as does what is written when it is off; its default entities never do. Checked against Hugo's
    /// source (`TextPlain` resolves the typographer's entities): Debian's Hugo 0.111 reads the source text instead.
    @Test func hugosTypographerSettingsDecideWhatDashesLeave() throws {
        let markdown = "## --data-dir\n## Flag --wal-dir... *a -- b*\n## Wait << here >>"
        #expect(Self.anchors(of: markdown, .hugo) == ["data-dir", "flag-wal-dir-a", "wait--here-"])
        var etcd = HugoHeadings()
        etcd.typographer?.enDash = "--"
        #expect(Self.anchors(of: markdown, .hugo, hugo: etcd) == ["--data-dir", "flag---wal-dir-a", "wait--here-"])
        var plain = HugoHeadings()
        plain.typographer = nil
        #expect(Self.anchors(of: markdown, .hugo, hugo: plain) == ["--data-dir", "flag---wal-dir-a----b", "wait--here-"])
        var dashes = HugoHeadings()
        dashes.typographer?.enDash = HugoHeadings.Typographer.resolvingEntities("&#45;x&ndash;&bogus;")
        #expect(Self.anchors(of: "## a--b", .hugo, hugo: dashes) == ["a-xbogusb"])
        var none = HugoHeadings()
        none.autoHeadingID = false
        #expect(Self.anchors(of: "## Install\n## Other {#other}", .hugo, hugo: none) == ["", "other"])
    }

    /// DocSearch's hierarchy as ranking hints: the page 10, a `##` section 5, a `###` one none; without sections, none.
    @Test func pagesAndSectionsCarryTheirLevelsHint() async throws {
        let folder = try Folder()
        try folder.write("docs/guide.md", "---\ntitle: Guide\n---\n## Install\nText.\n### On Linux\nText.\n")
        func hints(_ sections: String?) async throws -> [String: Int] {
            let run = await PluginConformance.items(of: try PostsSource(
                options: .init(directory: "docs", flavor: "hugo", sections: sections), context: folder.context()
            ))
            return Dictionary(uniqueKeysWithValues: run.items.map { ($0.uniqueIdentifier, $0.rankingHint ?? 0) })
        }
        #expect(try await hints("h3") == ["guide": 10, "guide#install": 5, "guide#on-linux": 0])
        #expect(try await hints(nil) == ["guide": 0])
    }

    /// Zola (`components/markdown/src/markdown.rs`, `find_anchor`; `utils::slugs::slugify_anchors`): every explicit id
    /// is reserved before the first heading, a repeated slug takes `-1`, `-2`…; text and code only.
    @Test func zolasAnchorsFollowItsSource() {
        let markdown = """
            ## Getting started
            ## Getting started
            ## Café crème **Noir**
            ## `code` and [a link](https://example.com)
            ## Later id taken {#getting-started-2}
            ## Getting started
            ## C++ -- pointers!
            """
        #expect(Self.anchors(of: markdown, .zola) == [
            "getting-started", "getting-started-1", "cafe-creme-noir", "code-and-a-link", "getting-started-2", "getting-started-3",
            "c-pointers",
        ])
    }

    /// Checked with Debian's Jekyll 4.3.1 and Hugo 0.111.3: Hugo takes Goldmark's attribute blocks (a duplicate explicit id
    /// stays a duplicate), kramdown only `{#id}`.
    @Test func explicitIDsWinAndJekyllTakesOnlyItsOwnForm() {
        let markdown = "## Install {#setup .wide}\n## Install {: #other}\n## Install {#setup}\n## Install {#1st}\n## Install {#a:b-c_d}"
        #expect(Self.anchors(of: markdown, .hugo) == ["setup", "install--other", "setup", "1st", "a:b-c_d"])
        #expect(Self.anchors(of: markdown, .jekyll) == ["install-setup-wide", "install--other", "setup", "install-1st", "a:b-c_d"])
    }

    /// Checked with Debian's Jekyll 4.3.1 and Hugo 0.111.3, but for the footnote in Hugo: 0.111 read `results1` from the source
    /// text, Hugo since 0.120 reads its plain text, where a footnote reference is no text.
    @Test func attributeBlocksScriptsAndFootnotesAsEachGeneratorReadsThem() {
        let markdown = """
            ## `run` {#run}
            ## Install {.note}
            ## Intro {#intro title="Hello world"}
            ## Quoted {id="qq"}
            ## Title { #y }
            ## 二〇二四年 Ⅻ Ⓐ
            ## Results[^1]
            ## a
            ## a
            ## a

            [^1]: A note.
            """
        #expect(Self.anchors(of: markdown, .jekyll) == [
            "run", "install-note", "intro-intro-titlehello-world", "quoted-idqq", "title--y-", "二〇二四年-ⅻ-ⓐ", "results", "a", "a-1", "a-2",
        ])
        #expect(Self.anchors(of: markdown, .hugo) == ["run", "install", "intro", "qq", "y", "二二四年--", "results", "a", "a-1", "a-2"])
        let titles = MarkdownSections.split(markdown[...], flavor: .hugo, deepest: 2).sections.map(\.title)
        #expect(titles.prefix(7) == ["run", "Install", "Intro", "Quoted", "Title", "二〇二四年 Ⅻ Ⓐ", "Results"])
    }

    /// Hugo since 0.120 (`TextPlain`): of emphasis or a link, the first piece, which its typographer ends at a quote.
    @Test func hugoReadsAContainersFirstPieceOnly() {
        #expect(Self.anchors(of: "## *Don't panic*\n## [Read *this* now](x)\n## Plain: don't", .hugo) == ["don", "read", "plain-dont"])
    }

    /// Thousands of equal headings take as many steps, not their square: 20,000 `## a` and 100,000 `#`.
    @Test func equalHeadingsAreNumberedInLinearTime() {
        let many = String(repeating: "## a\n", count: 20_000)
        let anchors = Self.anchors(of: many, .hugo)
        #expect(anchors.count == MarkdownSections.maxSections && anchors.last == "a-\(MarkdownSections.maxSections - 1)")
        #expect(Self.anchors(of: many, .zola).last == "a-\(MarkdownSections.maxSections - 1)")
        #expect(MarkdownSections.split(String(repeating: "#\n", count: 100_000)[...], flavor: .hugo, deepest: 3).sections.isEmpty)
    }

    /// Zola transliterates headings of CJK or emoji (`jian-jie`); the plugin cannot, and makes no anchor rather than `-1`.
    @Test func zolaHeadingsTheSlugCannotReadHaveNoAnchor() {
        #expect(Self.anchors(of: "## 简介\n## 简介\n## Intro", .zola) == ["", "", "intro"])
    }

    static func site(_ files: [String: String], sections: String? = "h3", flavor: String = "hugo") async throws -> [SearchableItem] {
        let folder = try Folder()
        for (name, text) in files { try folder.write("content/\(name)", text) }
        let plugin = try PostsSource(
            options: .init(directory: "content", flavor: flavor, baseURL: "https://docs.example", sections: sections), context: folder.context(domain: "com.docs")
        )
        let run = await PluginConformance.items(of: plugin)
        #expect(run.error == nil && run.violations.isEmpty, "\(String(describing: run.error)) \(run.violations)")
        return run.items
    }

    static let guide = """
        ---
        title: Install
        date: 2024-05-01T10:00:00Z
        tags: [setup]
        ---
        How to install the tool.

        ## On Linux

        Use the package. **Really**.

        ```sh
        apt-get install tool
        ```

        ### From source {#building}

        Run make.

        #### Notes

        A deeper heading is text.

        ## On Linux

        Again, with feeling.

        # A page heading

        Not in a section.

        ## Déjà vu
        """

    @Test func eachHeadingIsAnItemPointingAtItsPage() async throws {
        let items = try await Self.site(["docs/install.md": Self.guide])
        #expect(items.map(\.uniqueIdentifier) == [
            "docs/install", "docs/install#on-linux", "docs/install#building", "docs/install#on-linux-1", "docs/install#déjà-vu",
        ])
        let page = items[0]
        #expect(page.contentDescription == "How to install the tool." && page.relatedUniqueIdentifier == nil, "the page is as without sections")
        let linux = items[1]
        #expect(linux.title == "On Linux" && linux.displayName == "Install › On Linux")
        #expect(linux.contentDescription == "Use the package. Really.", "prose only: the code block is left out")
        #expect(linux.contentURL == "https://docs.example/docs/install/#on-linux")
        #expect(linux.relatedUniqueIdentifier == "docs/install")
        #expect(linux.contentCreationDate == page.contentCreationDate && linux.keywords.isEmpty)
        let building = items[2]
        #expect(building.title == "From source" && building.displayName == "Install › On Linux › From source", "the explicit id is not text")
        #expect(building.contentDescription == "Run make. Notes A deeper heading is text.")
        #expect(items[3].contentDescription == "Again, with feeling.", "a # heading ends the section")
        #expect(items[4].contentURL == "https://docs.example/docs/install/#d%C3%A9j%C3%A0-vu", "the anchor percent-encoded in the link")
        #expect(items[4].displayName == "Install › Déjà vu")
    }

    @Test func h2SectionsHoldTheirSubsectionsAndNoneIsTheDefault() async throws {
        let items = try await Self.site(["docs/install.md": Self.guide], sections: "h2")
        #expect(items.map(\.uniqueIdentifier) == ["docs/install", "docs/install#on-linux", "docs/install#on-linux-1", "docs/install#déjà-vu"])
        #expect(items[1].contentDescription == "Use the package. Really. From source Run make. Notes A deeper heading is text.")
        #expect(try await Self.site(["docs/install.md": Self.guide], sections: nil).map(\.uniqueIdentifier) == ["docs/install"])
        #expect(try await Self.site(["docs/install.md": Self.guide], sections: "none").count == 1)
    }

    @Test func anUnknownSectionsValueIsRefusedNamingTheChoices() {
        #expect(throws: PluginOptionError(option: "sections", reason: "'h4' is not one of none, h2, h3")) {
            try PostsSource.validate(.init(directory: "content", sections: "h4"))
        }
    }

    @Test func aSectionWhoseAnchorAnotherHasIsRejectedNamingTheFirst() async throws {
        let page = "---\ntitle: Page\n---\n## One {#same}\n\n## Two {#same}\n\n## Three\n"
        let folder = try Folder()
        try folder.write("content/page.md", page)
        let context = folder.context(domain: "com.docs")
        let run = await PluginConformance.items(of: try PostsSource(options: .init(directory: "content", flavor: "hugo", sections: "h2"), context: context))
        #expect(run.items.map(\.uniqueIdentifier) == ["page", "page#same", "page#three"])
        let rejected = context.rejections.examples
        #expect(rejected.count == 1 && rejected.first?.reason.contains("'page#same', as page.md has it") == true, "\(rejected)")
    }

    @Test func hostileHeadingsAreBounded() async throws {
        let many = (0..<10_000).map { "## Heading \($0 % 7)\n\ntext \($0)\n" }.joined(separator: "\n")
        let huge = "## " + String(repeating: "word ", count: 20_000) + "\n\ntext\n"
        let nested = "## " + String(repeating: "*", count: 50_000) + "deep" + String(repeating: "*", count: 50_000) + "\n"
        let items = try await Self.site(["many.md": "---\ntitle: Many\n---\n" + many, "huge.md": "---\ntitle: Huge\n---\n" + huge, "nested.md": nested], sections: "h2")
        #expect(items.filter { $0.relatedUniqueIdentifier == "many" }.count == MarkdownSections.maxSections, "sections past the limit are counted, not indexed")
        #expect(items.filter { $0.relatedUniqueIdentifier == "huge" }.isEmpty, "an anchor of 100 KB does not fit an identifier")
        #expect(items.contains { $0.relatedUniqueIdentifier == "nested" })
        for item in items { try item.validate() }
    }

    /// jekyllrb.com's history: `{: #v4-4-1}` on the line below a heading names its id (kramdown's block attribute list).
    @Test func aKramdownAttributeListBelowAHeadingNamesItsID() {
        let markdown = "## 4.4.1 / 2025-01-29\n{: #v4-4-1}\n\n### Bug Fixes\n{: #bug-fixes-v4-4-1}\n\n- Restore globbed paths\n\n## Later\n\n{: #not-mine}\n"
        let split = MarkdownSections.split(markdown[...], flavor: .jekyll, deepest: 3).sections
        #expect(split.map(\.anchor) == ["v4-4-1", "bug-fixes-v4-4-1", "later"], "a list after a blank line names no heading")
        #expect(split[1].text == "Restore globbed paths", "the list is no text")
        #expect(Self.anchors(of: markdown, .hugo) == ["441--2025-01-29", "bug-fixes", "later"], "Hugo reads no kramdown list")
    }

    /// Checked with Debian's Jekyll 4.3.1: `:name` and `:slug` are lowercased slugs (`:slug` the front matter's), a
    /// collection without a permalink ends as the site's style does, and a post's `:name` is its file's name.
    @Test func jekyllDocumentPlaceholdersAreJekyllsOwn() async throws {
        let folder = try Folder()
        try folder.write("site/_config.yml", "permalink: pretty\ncollections:\n  guides:\n    permalink: /:collection/:slug/:name/\n    output: true\n  docs:\n    output: true\n")
        try folder.write("site/_guides/My_File.md", "---\ntitle: Guide\nslug: Custom Slug\n---\nText.\n")
        try folder.write("site/_docs/Getting_Started.md", "---\ntitle: Start\n---\nText.\n")
        try folder.write("site/_posts/2024-01-02-Hello-World.md", "---\ntitle: Hello\npermalink: /blog/:name/\n---\nText.\n")
        let run = await PluginConformance.items(of: try PostsSource(options: .init(directory: "site", flavor: "jekyll"), context: folder.context()))
        #expect(run.items.map(\.uniqueIdentifier).sorted() == ["blog/2024-01-02-hello-world", "docs/Getting_Started", "guides/custom-slug/my-file"])
    }

    /// jekyllrb.com serves its `docs` collection at `collections.docs.permalink` (`/:collection/:path/`).
    @Test func aJekyllCollectionIsPublishedAtItsPermalink() async throws {
        let folder = try Folder()
        try folder.write("site/_config.yml", "collections:\n  docs:\n    permalink: /:collection/:path/\n    output: true\n  tutorials:\n    output: true\n")
        try folder.write("site/_docs/step-by-step/01-setup.md", "---\ntitle: Setup\n---\nFirst.\n")
        try folder.write("site/_tutorials/convert.md", "---\ntitle: Convert\n---\nSecond.\n")
        let plugin = try PostsSource(options: .init(directory: "site", flavor: "jekyll"), context: folder.context())
        let run = await PluginConformance.items(of: plugin)
        #expect(run.items.map(\.uniqueIdentifier).sorted() == ["docs/step-by-step/01-setup", "tutorials/convert.html"])
        try folder.write("site/_config.yml", "collections:\n  docs:\n    permalink: /:collection/:bogus/\n")
        #expect(throws: PluginOptionError.self) { try PostsSource(options: .init(directory: "site", flavor: "jekyll"), context: folder.context()) }
    }
}
