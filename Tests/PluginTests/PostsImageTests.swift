import Foundation
import PluginAPI
import PluginConformance
@testable import PostsPlugin
import Testing

/// A post's image becomes its item's thumbnail: an address is linked, a file of the folder is read when it is an
/// image; anything else is left out and the post still published.
@Suite("Posts' images as thumbnails")
struct PostsImageTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 100)
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 1, count: 50)
    static let webp = Data("RIFF".utf8) + Data([0, 0, 0, 0]) + Data("WEBPVP8 ".utf8)

    /// A folder of posts naming their images every way sites do, and the items of a run over it, by identifier.
    func run() async throws -> (items: [String: SearchableItem], error: (any Error)?, outside: Folder, folder: Folder) {
        let folder = try Folder(), outside = try Folder()
        func post(_ name: String, _ frontMatter: String, body: String = "Text.") throws {
            try folder.write("site/\(name)", "---\ntitle: \(name)\n\(frontMatter)---\n\(body)\n")
        }
        try FileManager.default.createDirectory(atPath: folder.path("site/pics"), withIntermediateDirectories: true)
        try Self.png.write(to: URL(fileURLWithPath: folder.path("site/pics/a.png")))
        try Self.webp.write(to: URL(fileURLWithPath: folder.path("site/pics/w.webp")))
        try FileManager.default.createDirectory(atPath: folder.path("site/bundle"), withIntermediateDirectories: true)
        try Self.jpeg.write(to: URL(fileURLWithPath: folder.path("site/bundle/cover.jpg")))
        try Data(repeating: 0x89, count: ItemLimits.standard.maxThumbnailBytes + 1).write(to: URL(fileURLWithPath: folder.path("site/pics/huge.png")))
        try folder.write("site/pics/notes.txt", "not an image")
        try Self.png.write(to: URL(fileURLWithPath: outside.path("secret.png")))
        try FileManager.default.createSymbolicLink(atPath: folder.path("site/pics/link.png"), withDestinationPath: outside.path("secret.png"))

        try post("address.md", "image: https://cdn.example.com/a.png\n")
        try post("list.md", "images: [pics/a.png, pics/w.webp]\n")
        try post("mapping.md", "image: {path: /pics/w.webp}\n")
        try post("cover.md", "cover: {image: \"pics/a%2Epng?v=2#top\"}\n")
        try post("body.md", "", body: "Intro.\n\n![A cat](pics/a.png \"title\")\n")
        try post("html.md", "", body: "<p>Hi <img alt=x src='pics/w.webp'></p>\n")
        try post("bundle/index.md", "", body: "![Cover](cover.jpg)\n")
        // The outside file is a real image: only the folder's confinement keeps it out.
        try post("escape.md", "og_image: ../../\(outside.url.lastPathComponent)/secret.png\n")
        try post("escape-body.md", "", body: "![x](../../\(outside.url.lastPathComponent)/secret.png)\n")
        try post("posts/from-root.md", "image: pics/a.png\n")
        try post("file-scheme.md", "thumbnail: file:///etc/passwd\n")
        try post("javascript.md", "", body: "![x](javascript:alert(1))\n")
        try post("scheme-relative.md", "image: //evil.example/a.png\n")
        try post("text.md", "image: pics/notes.txt\n")
        try post("huge.md", "image: pics/huge.png\n")
        try post("link.md", "image: pics/link.png\n")
        try post("missing.md", "image: pics/none.png\n")
        try post("shape.md", "image: [[nested]]\n")
        try post("none.md", "")
        try post("static.md", "", body: "![Icons](/assets/img/icons.png)\n")
        let plugin = try PostsSource(options: .init(directory: "site", flavor: "hugo", baseURL: "https://blog.example/"), context: folder.context())
        let run = await PluginConformance.items(of: plugin)
        return (Dictionary(uniqueKeysWithValues: run.items.map { ($0.uniqueIdentifier, $0) }), run.error, outside, folder)
    }

    @Test func imagesBecomeThumbnailsAndEverythingElseIsLeftOut() async throws {
        let (items, error, _, _) = try await run()
        #expect(error == nil)
        #expect(items.count == 20, "every post is published, with or without its image")
        #expect(items["posts/from-root"]?.thumbnailData == Self.png, "a front matter's relative path, from the site's root")
        #expect(items["static"]?.thumbnailURL == "https://blog.example/assets/img/icons.png", "from the site's root, not in the folder: linked where the site serves it")
        #expect(items["address"]?.thumbnailURL == "https://cdn.example.com/a.png" && items["address"]?.thumbnailData == nil)
        #expect(items["list"]?.thumbnailData == Self.png, "a list's first")
        #expect(items["mapping"]?.thumbnailData == Self.webp, "a mapping's path; '/' is the folder's root")
        #expect(items["cover"]?.thumbnailData == Self.png, "cover.image, escapes decoded, query and fragment dropped")
        #expect(items["body"]?.thumbnailData == Self.png, "the body's first Markdown image")
        #expect(items["html"]?.thumbnailData == Self.webp, "an HTML <img>")
        #expect(items["bundle"]?.thumbnailData == Self.jpeg, "relative to the post's own folder")
        for name in ["escape", "escape-body", "file-scheme", "javascript", "scheme-relative", "text", "shape", "none"] {
            #expect(items[name]?.thumbnailData == nil && items[name]?.thumbnailURL == nil, "\(name)")
        }
        // Named in the front matter but not read from the folder (too large, a link leading out, missing): linked
        // where the site serves its root, never read.
        for (name, file) in [("huge", "huge.png"), ("link", "link.png"), ("missing", "none.png")] {
            #expect(items[name]?.thumbnailData == nil && items[name]?.thumbnailURL == "https://blog.example/pics/\(file)", "\(name)")
        }
    }

    @Test(arguments: [
        ("https://x.example/a.png", false, "p/post.md", PostImage.Location.address("https://x.example/a.png")),
        ("a.png", false, "p/q/post.md", .files(["p/q/a.png"], sitePath: nil)), ("../a.png", false, "p/q/post.md", .files(["p/a.png"], sitePath: nil)),
        ("/img/./a.png", false, "p/post.md", .files(["img/a.png"], sitePath: "/img/a.png")), ("my%20cat.png", false, "post.md", .files(["my cat.png"], sitePath: nil)),
        ("assets/a.png", true, "_posts/x.md", .files(["_posts/assets/a.png", "assets/a.png"], sitePath: "/assets/a.png")),
        ("../a.png", true, "_posts/x.md", .files(["a.png"], sitePath: nil)),
    ])
    func aReferenceIsLocatedInTheFolder(reference: String, inFrontMatter: Bool, post: String, location: PostImage.Location) throws {
        #expect(try PostImage.locate(.init(text: reference, inFrontMatter: inFrontMatter), from: post).get() == location)
    }

    @Test(arguments: [
        ("../a.png", PostImage.Ignored.outside), ("/../a.png", .outside), ("data:image/png;base64,AAAA", .notAnAddress), ("FILE:///etc/passwd", .notAnAddress),
        ("//host/a.png", .notAnAddress), ("https://", .notAnAddress), ("a%00.png", .notAnAddress), ("", .notAnAddress), ("/", .notAnAddress),
    ])
    func aReferenceOutsideTheFolderOrOfAnotherSchemeIsLeftOut(reference: String, reason: PostImage.Ignored) {
        #expect(throws: reason) { try PostImage.locate(.init(text: reference, inFrontMatter: true), from: "post.md").get() }
    }

    @Test func theFirstImageSourceIsFoundInHTMLAsWritten() {
        #expect(MarkdownProse.imageSource(inHTML: #"<IMG class="x" SRC="a.png">"#) == "a.png")
        #expect(MarkdownProse.imageSource(inHTML: "<img data-src=no src=yes.png/>") == "yes.png/")
        #expect(MarkdownProse.imageSource(inHTML: "<imgsrc=a.png><img alt='src=b.png'>") == nil)
        #expect(MarkdownProse.imageSource(inHTML: "<!-- <img src=old.png> --><img src='a.png?x=1&amp;y=2'>") == "a.png?x=1&y=2")
        // Never-closed tags and tags without a source, 1 MiB of them: each character is looked at a bounded number of times.
        #expect(MarkdownProse.imageSource(inHTML: String(repeating: "<img ", count: 200_000)) == nil)
        #expect(MarkdownProse.imageSource(inHTML: String(repeating: "<img alt=x>", count: 100_000)) == nil)
        #expect(MarkdownProse.firstImage(of: "<div>\n" + String(repeating: "<img ", count: 200_000)) == nil)
    }
}
