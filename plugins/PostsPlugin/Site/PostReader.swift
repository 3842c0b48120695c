import Foundation
import PluginAPI

/// Reads one post as its generator would publish it, and makes the searchable item of it.
///
/// Which posts are published (drafts, `published: false`, future and expired posts), the title, description,
/// keywords, date and authors, and the URL follow the flavor's conventions (see docs/plugins.md, "posts").
struct PostReader: Sendable {
    /// Why a post is not published.
    enum Skip: String, Sendable, CaseIterable {
        case draft, unpublished, future, expired
    }

    /// What became of one file.
    enum Outcome {
        /// The post's item, and the image it names, as written (``PostImage`` makes it the thumbnail); with its sections
        /// (``sections``) when they are asked.
        case item(SearchableItem, image: PostImage.Reference?, sections: PostSections)
        case skipped(Skip)
    }

    /// The flavor all files follow; `nil` to detect it per file.
    var flavor: SiteFlavor?
    /// The permalink of Jekyll posts without one of their own.
    var permalink: Permalink
    /// Whether future-dated posts are published; `nil` for the flavor's default.
    var future: Bool?
    /// The zone of dates and times written without one, and of the dates in URLs.
    var zone: TimeZone
    /// The site's address (`https://example.com`): items' `contentURL` is it followed by the post's URL path.
    var baseURL: String?
    /// Hugo's `permalinks` by section, and `uglyURLs` (``SiteSettings``).
    var hugoPermalinks: [String: HugoPermalink] = [:]
    /// Jekyll's collections' permalinks (``SiteSettings/jekyllCollectionPermalinks``) and the default one.
    var jekyllCollectionPermalinks: [String: Permalink] = [:]
    var jekyllCollectionDefault = Permalink.collectionDefault(siteStyle: nil)
    /// Jekyll's front matter defaults (``SiteSettings/jekyllDefaults``).
    var jekyllDefaults = JekyllDefaults()
    var uglyURLs = false
    /// Hugo's settings for heading ids (``SiteSettings/hugoHeadings``).
    var hugoHeadings = HugoHeadings()
    /// The versions published side by side, if any.
    var versions: DocsVersions?
    /// The deepest heading level that starts a section (2 or 3); `nil` for none.
    var sectionDepth: Int?
    var domain: String
    /// The instant future and expired posts are judged by.
    var now: Date

    /// The flavor of `path`'s post and what became of it; throws a ``FrontMatterProblem`` or a ``PostRejection``.
    /// `inHeadlessSection`: a Hugo section above the post cascades `build: {render: never}`.
    func read(_ text: String, at relativePath: String, inHeadlessSection: Bool = false) throws -> (flavor: SiteFlavor, outcome: Outcome) {
        let block = try FrontMatterBlock.split(text)
        let path = PostPath(relativePath)
        // Jekyll is told apart without the keys, so its files are read by its rules from the start.
        let asJekyll = (self.flavor ?? SiteFlavor.detect(path: path, format: block?.format, keys: [])) == .jekyll
        var fields = try FrontMatter(block, zone: zone, asJekyll: asJekyll)
        if asJekyll { fields.defaults = jekyllDefaults.values(path: relativePath, type: Self.jekyllType(of: path)) }
        let flavor = self.flavor ?? SiteFlavor.detect(path: path, format: block?.format, keys: fields.keys)
        let post = Post(fields: fields, body: block?.body ?? text[...], path: path, flavor: flavor, zone: zone)
        return (flavor, try outcome(of: post, inHeadlessSection: inHeadlessSection))
    }

    /// The type Jekyll's defaults scope a file by: `posts` (drafts are posts to Jekyll 4), a collection's name, or `pages`.
    static func jekyllType(of path: PostPath) -> String {
        if path.jekyllFolder != nil { return "posts" }
        return path.jekyllCollection.map { String($0.name) } ?? "pages"
    }

    /// Whether a Hugo section page (`_index.md`) makes its descendants headless: `cascade: {build: {render: never}}`.
    func cascadesHeadless(_ text: String) -> Bool {
        guard let block = try? FrontMatterBlock.split(text), let fields = try? FrontMatter(block, zone: zone) else { return false }
        return (try? fields.isHeadless(under: ["cascade"])) == true
    }

    private func outcome(of post: Post, inHeadlessSection: Bool) throws -> Outcome {
        if try post.fields.flag("draft") == true || post.path.isJekyllDraft { return .skipped(.draft) }
        if post.flavor == .jekyll, post.path.jekyllFolder != nil, post.path.jekyllDatePrefix == nil {
            throw PostRejection("Jekyll publishes a file in _posts only when it is named YYYY-MM-DD-title.md")
        }
        if try post.fields.flag("published") == false || post.flavor == .hugo && (try post.isHeadless() || inHeadlessSection) {
            return .skipped(.unpublished)
        }
        let date = try post.date()
        if let published = try post.fields.date("publishDate") ?? date, published > now, !(future ?? post.flavor.publishesFuture) {
            return .skipped(.future)
        }
        let expires = try post.fields.date("expiryDate", "expires", "unpublishDate")
        if let expires, expires <= now { return .skipped(.expired) }

        let urlPath = try post.urlPath(
            permalink: permalink, collectionPermalinks: jekyllCollectionPermalinks, collectionDefault: jekyllCollectionDefault, hugoPermalinks: hugoPermalinks, uglyURLs: uglyURLs, date: date
        )
        let trimmed = urlPath.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        var item = SearchableItem(uniqueIdentifier: trimmed.isEmpty ? "index" : trimmed, domainIdentifier: domain, title: try post.title())
        item.contentType = "public.text"
        item.contentDescription = try post.description()
        item.keywords = try post.keywords()
        item.authorNames = try post.authors()
        item.contentCreationDate = date
        item.contentModificationDate = post.modificationDate()
        item.expirationDate = expires
        versions?.apply(to: &item, at: post.path.relativePath)
        if let baseURL {
            let escaped = urlPath.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? urlPath
            item.contentURL = String(baseURL.trimmingTrailingSlashes) + escaped
        }
        // Refused here, the post is reported by its path rather than by an identifier the index never takes.
        try item.validate()
        if sectionDepth != nil { item.rankingHint = PostSections.pageRankingHint }
        let sections = sectionDepth.map { PostSections(of: item, body: post.body, flavor: post.flavor, hugo: hugoHeadings, deepest: $0) } ?? PostSections()
        return .item(item, image: post.imageReference(), sections: sections)
    }
}

/// Why a file is not a post that can be indexed.
struct PostRejection: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension String {
    var trimmingTrailingSlashes: Substring {
        var text = self[...]
        while text.hasSuffix("/") { text = text.dropLast() }
        return text
    }
}
