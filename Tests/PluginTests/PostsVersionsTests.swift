import Foundation
import PluginAPI
import PluginConformance
@testable import PostsPlugin
import Testing

/// Documentation published in versions side by side: the `versions` option, or a Hugo Docsy site's
/// `params.versions`, gives each page's items their version and says which is current.
@Suite("Posts: documentation versions")
struct PostsVersionsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// etcd's shape: `content/en/docs/v3.6`, `v3.7`, `v3.8`, a blog outside them.
    static func site(in folder: Folder) throws {
        for version in ["v3.6", "v3.7", "v3.8"] {
            try folder.write("site/content/docs/\(version)/op-guide/recovery.md", "---\ntitle: Disaster recovery\n---\n## Restoring a cluster\nText.\n")
        }
        try folder.write("site/content/docs/_index.md", "---\ntitle: Documentation\n---\nText.\n")
        try folder.write("site/content/blog/news.md", "---\ntitle: News\ndate: 2024-01-02\n---\nText.\n")
    }

    static func versions(_ run: (items: [SearchableItem], violations: [String], error: (any Error)?)) -> [String: String] {
        Dictionary(uniqueKeysWithValues: run.items.map { item in
            (item.uniqueIdentifier, item.version.map { $0 + (item.isCurrentVersion ? "*" : "") } ?? "-")
        })
    }

    @Test func theOptionsFolderPatternGivesEachPageItsVersion() async throws {
        let folder = try Folder()
        try Self.site(in: folder)
        let run = await PluginConformance.items(of: try PostsSource(
            options: .init(directory: "site/content", flavor: "hugo", sections: "h2", versions: .init(folder: "docs/{version}", current: "v3.7")),
            context: folder.context(now: Self.now)
        ))
        #expect(run.error == nil)
        #expect(Self.versions(run) == [
            "docs/v3.6/op-guide/recovery": "v3.6", "docs/v3.6/op-guide/recovery#restoring-a-cluster": "v3.6",
            "docs/v3.7/op-guide/recovery": "v3.7*", "docs/v3.7/op-guide/recovery#restoring-a-cluster": "v3.7*",
            "docs/v3.8/op-guide/recovery": "v3.8", "docs/v3.8/op-guide/recovery#restoring-a-cluster": "v3.8",
            "docs": "-", "blog/news": "-",
        ], "sections carry their page's version; pages outside every version's folder none")
    }

    /// A Hugo Docsy site lists its versions and the URL of each (etcd's `config.yaml`); etcd names the current one
    /// `latest_stable_version`, Docsy `version`.
    @Test(arguments: ["latest_stable_version: v3.7\n  version:\n    deprecation_warning: old\n", "version: v3.7\n"])
    func aDocsySitesVersionsAreReadWithoutTheOption(current: String) async throws {
        let folder = try Folder()
        try Self.site(in: folder)
        try folder.write("site/config.yaml", """
            baseURL: https://etcd.example
            params:
              \(current)
              versions:
                - version: v3.8
                  url: /docs/v3.8/
                - version: v3.7
                  url: /docs/v3.7/
                - version: v3.6
                  url: /docs/v3.6/
                - version: v2.3
                  url: https://v2.etcd.example/docs/
            """)
        let run = await PluginConformance.items(of: try PostsSource(
            options: .init(directory: "site/content", flavor: "hugo", site: "site/config.yaml"), context: folder.context(now: Self.now)
        ))
        #expect(run.error == nil)
        #expect(Self.versions(run) == [
            "docs/v3.6/op-guide/recovery": "v3.6", "docs/v3.7/op-guide/recovery": "v3.7*", "docs/v3.8/op-guide/recovery": "v3.8",
            "docs": "-", "blog/news": "-",
        ])
        let overridden = await PluginConformance.items(of: try PostsSource(
            options: .init(directory: "site/content", flavor: "hugo", site: "site/config.yaml", versions: .init(current: "v3.8")),
            context: folder.context(now: Self.now)
        ))
        #expect(Self.versions(overridden)["docs/v3.8/op-guide/recovery"] == "v3.8*", "the option's current wins over the site's")
    }

    @Test func versionsThatCannotWorkAreRefusedNamingTheOption() throws {
        let refused: [(PostsSource.Versions, String)] = [
            (.init(folder: "docs", current: "v1"), "must hold {version} once"),
            (.init(folder: "docs/{version}/{version}", current: "v1"), "must hold {version} once"),
            (.init(folder: "docs/v{version}", current: "v1"), "must hold {version} once"),
            (.init(folder: "../docs/{version}", current: "v1"), "must be a relative folder"),
            (.init(folder: "/docs/{version}", current: "v1"), "must be a relative folder"),
            (.init(folder: "docs/{version}"), "name the current version"),
            (.init(current: "v1"), "name the folder of each version"),
            (.init(folder: "docs/{version}", current: "v\n1"), "control character"),
        ]
        for (versions, reason) in refused {
            #expect("\(versions)") {
                try PostsSource.validate(.init(directory: "posts", versions: versions))
            } throws: { error in
                (error as? PluginOptionError)?.option == "versions" && "\(error)".contains(reason)
            }
        }
    }

    @Test func aVersionOfTheFolderTooLongForAnItemRejectsThePage() async throws {
        let folder = try Folder()
        try folder.write("site/docs/\(String(repeating: "v", count: 65))/a.md", "---\ntitle: A\n---\nText.\n")
        try folder.write("site/docs/v1/a.md", "---\ntitle: A\n---\nText.\n")
        let context = folder.context(now: Self.now)
        let run = await PluginConformance.items(of: try PostsSource(
            options: .init(directory: "site", flavor: "hugo", versions: .init(folder: "docs/{version}", current: "v1")), context: context
        ))
        #expect(run.items.map(\.uniqueIdentifier) == ["docs/v1/a"])
        #expect(context.rejections.examples.first?.reason.contains("version") == true, "\(context.rejections.examples)")
    }
}

/// What a version set up wrong would cost, refused before a run writes anything.
@Suite("Posts: versions set up wrong")
struct PostsVersionsRefusalTests {
    @Test func aCurrentVersionWithoutItsFolderIsRefusedBeforeAnythingIsSent() throws {
        let folder = try Folder()
        try PostsVersionsTests.site(in: folder)
        #expect {
            _ = try PostsSource(
                options: .init(directory: "site/content", flavor: "hugo", versions: .init(folder: "docs/{version}", current: "3.7")),
                context: folder.context(now: PostsVersionsTests.now)
            )
        } throws: { error in
            "\(error)".contains("the current version '3.7' has no folder docs/3.7")
        }
    }

    @Test func aDocsyCurrentVersionTheSiteDoesNotListIsRefused() throws {
        let folder = try Folder()
        try PostsVersionsTests.site(in: folder)
        try folder.write("site/config.yaml", "params:\n  version: v9\n  Versions:\n    - { version: v3.7, URL: /docs/v3.7/ }\n")
        #expect {
            _ = try PostsSource(options: .init(directory: "site/content", flavor: "hugo", site: "site/config.yaml"), context: folder.context(now: PostsVersionsTests.now))
        } throws: { error in
            "\(error)".contains("the current version 'v9' is not one the site's params.versions lists (v3.7)")
        }
    }

    @Test func aTypographerReplacementPastSixteenBytesIsRefused() throws {
        let folder = try Folder()
        try folder.write("site/content/a.md", "---\ntitle: A\n---\n## a--b\n")
        try folder.write("site/hugo.toml", "[markup.goldmark.extensions.typographer]\nenDash = '\(String(repeating: "x", count: 17))'\n")
        #expect {
            _ = try PostsSource(options: .init(directory: "site/content", flavor: "hugo", site: "site/hugo.toml"), context: folder.context())
        } throws: { error in
            "\(error)".contains("typographer.enDash: longer than 16 bytes")
        }
    }
}
