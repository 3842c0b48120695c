import Foundation
import PluginAPI

/// One post's front matter, body and place in the folder, read through its flavor's conventions.
struct Post {
    /// Longest description kept, in UTF-8 bytes; a longer first paragraph is cut at a word.
    static let maxDescriptionBytes = 4096

    var fields: FrontMatter
    var body: Substring
    var path: PostPath
    var flavor: SiteFlavor
    var zone: TimeZone

    /// The keys whose values are the post's keywords, in order.
    static let keywordKeys = ["tags", "tag", "categories", "category", "keywords"]

    /// The name its slug comes from: the file's (a bundle's folder's), without the date prefix Jekyll and Zola read.
    var name: Substring {
        guard flavor != .hugo, let prefix = path.datePrefix(for: flavor) else { return path.name }
        return prefix.rest
    }

    /// The post's date: `date` (Hugo also `publishDate`, `lastmod`), or the file name's date prefix (Jekyll, Zola),
    /// midnight in the site's zone.
    func date() throws(FrontMatterProblem) -> Date? {
        let written = flavor == .hugo ? try fields.date("date", "publishDate", "lastmod") : try fields.date("date")
        if let written { return written }
        guard flavor != .hugo, let prefix = path.datePrefix(for: flavor) else { return nil }
        return zone.instant(of: prefix.date)
    }

    /// Whether Hugo renders no page for the post: `build: {render: never}` (or `_build`; `false` in older sites).
    func isHeadless() throws(FrontMatterProblem) -> Bool {
        try fields.isHeadless(under: [])
    }

    /// The front-matter keys naming the post's image, in order; Zola's under `extra`.
    static let imageKeys = ["image", "images", "cover.image", "og_image", "thumbnail", "extra.image", "extra.images", "extra.og_image", "extra.thumbnail"]

    /// The post's image as written: the first of ``imageKeys`` holding text (a list's first; a mapping's `path`,
    /// `url` or `src`, as jekyll-seo-tag reads `image`), else the body's first image (``MarkdownProse/firstImage(of:)``).
    /// A value of another shape is passed over: an image is never a reason to refuse a post.
    func imageReference() -> PostImage.Reference? {
        for key in Self.imageKeys {
            guard var node = fields.node(key.split(separator: ".").map(String.init)) else { continue }
            if let first = node.elements?.first { node = first }
            if node.entries != nil, let inner = node["path"] ?? node["url"] ?? node["src"] { node = inner }
            if let text = try? fields.string(node, named: key), !text.isEmpty { return PostImage.Reference(text: text, inFrontMatter: true) }
        }
        return MarkdownProse.firstImage(of: body).map { PostImage.Reference(text: $0, inFrontMatter: false) }
    }

    /// `title`, or one made from the slug (`2015-10-26-jekyll-3-0-released.md` → "Jekyll 3 0 Released", as Jekyll
    /// does), or a section's folder.
    func title() throws(FrontMatterProblem) -> String {
        if let title = try fields.string("title") { return title }
        if path.isSection { return path.folders.last.map { Slug.titleized($0) } ?? "Home" }
        return Slug.titleized(name)
    }

    /// `description`, `summary` or `excerpt` from the front matter, or the body's first prose paragraph.
    func description() throws(FrontMatterProblem) -> String? {
        let text = try fields.string("description", "summary", "excerpt").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            ?? MarkdownProse.firstParagraph(of: body)
        guard let text, text.utf8.count > Self.maxDescriptionBytes else { return text }
        var bytes = 0
        var cut = String(text.prefix { character in
            bytes += character.utf8.count
            return bytes <= Self.maxDescriptionBytes - 3
        })
        if let space = cut.lastIndex(of: " ") { cut = String(cut[..<space]) }
        return cut + "…"
    }

    /// Jekyll's categories: front matter `categories`/`category` and the folders above `_posts`.
    func categories() throws(FrontMatterProblem) -> [String] {
        let folders = path.jekyllFolder.map { path.folders[..<$0].map(String.init) } ?? []
        return try folders + fields.list("categories") { flavor.terms(in: $0, key: "categories") }
            + fields.list("category") { [$0] }
    }

    /// Keywords from `tags`, `tag`, `categories`, `category`, `keywords`, Zola's `[taxonomies]`, and Jekyll's
    /// category folders; each once, in that order.
    func keywords() throws(FrontMatterProblem) -> [String] {
        var terms: [String] = path.jekyllFolder.map { path.folders[..<$0].map(String.init) } ?? []
        for key in Self.keywordKeys {
            terms += try fields.list(key) { flavor.terms(in: $0, key: key) }
        }
        // Taxonomies by name, whatever order the front matter writes them in.
        for name in (fields.node("taxonomies")?.entries ?? []).compactMap(\.key.scalarText).sorted() {
            terms += try fields.list("taxonomies.\(name)") { [$0] }
        }
        var seen = Set<String>()
        return terms.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// When the post last changed, as its generator's front matter says it: Hugo's `lastmod` (or `modified`),
    /// Jekyll's `last_modified_at` (jekyll-last-modified-at, jekyll-seo-tag), Zola's `updated`; `nil` when not written
    /// or not a date this reader knows (a post is never refused for it: it was published before it had one).
    func modificationDate() -> Date? {
        switch flavor {
        case .hugo: try? fields.date("lastmod", "modified")
        case .jekyll: try? fields.date("last_modified_at")
        case .zola: try? fields.date("updated")
        }
    }

    /// The post's authors: `author`, `authors` (Zola's under `extra` too), each once, in that order; the first
    /// ``ItemLimits/maxAuthorNames``, each cut to ``ItemLimits/maxAuthorNameBytes`` (a post is never refused for its byline).
    func authors() throws(FrontMatterProblem) -> [String] {
        var seen = Set<String>()
        let limits = ItemLimits.standard
        return try (fields.names("author") + fields.names("authors") + fields.names("extra.author") + fields.names("extra.authors"))
            .map { name in
                var bytes = 0
                return String(name.trimmingCharacters(in: .whitespacesAndNewlines).prefix { character in
                    bytes += character.utf8.count
                    return bytes <= limits.maxAuthorNameBytes
                })
            }
            .filter { !$0.isEmpty && !$0.unicodeScalars.contains("\0") && seen.insert($0).inserted }
            .prefix(limits.maxAuthorNames).map { $0 }
    }

    /// The path the generator publishes the post at: `/news/2015/10/26/jekyll-3-0-released/`, `/posts/my-post/`.
    /// Hugo: `url`, else the section's pattern of the site's `permalinks`, else the section folders and the slug or
    /// file name; `uglyURLs` ends every path but the home page's in `.html` rather than `/`.
    func urlPath(
        permalink: Permalink, collectionPermalinks: [String: Permalink] = [:], collectionDefault: Permalink = .collectionDefault(siteStyle: nil),
        hugoPermalinks: [String: HugoPermalink] = [:], uglyURLs: Bool = false, date: Date?
    ) throws -> String {
        switch flavor {
        case .jekyll: return try jekyllPath(permalink: permalink, collectionPermalinks: collectionPermalinks, collectionDefault: collectionDefault, date: date)
        case .hugo:
            if let url = try fields.string("url") { return url.hasPrefix("/") ? url : "/" + url }
            let sections = path.sections.map { Slug.hugo($0) }
            let slug = try fields.string("slug").map { Slug.hugo($0[...]) }
            let page: String
            if !path.isSection, let section = sections.first, let pattern = hugoPermalinks[section] {
                let values = HugoPermalink.values(
                    date: date, zone: zone, sections: sections, title: try title(), slug: slug, filename: Slug.hugo(name)
                )
                page = pattern.path(with: values).lowercased()
            } else {
                page = sectionPath(sections, page: path.isSection ? nil : slug ?? Slug.hugo(name))
            }
            return uglyURLs && page.count > 1 && page.hasSuffix("/") ? String(page.dropLast()) + ".html" : page
        case .zola:
            if let written = try fields.string("path") { return "/" + written.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/" }
            let slug = try fields.string("slug").map { Slug.zola($0[...]) } ?? Slug.zola(name)
            return sectionPath(path.sections.map { Slug.zola($0) }, page: path.isSection ? nil : slug)
        }
    }

    private func sectionPath(_ sections: [String], page: String?) -> String {
        let parts = (sections + [page].compactMap { $0 }).filter { !$0.isEmpty }
        return parts.isEmpty ? "/" : "/" + parts.joined(separator: "/") + "/"
    }

    /// Jekyll: the post's `permalink`, or the site's; a collection's document its own, or its collection's, or the
    /// default one (``Permalink/collectionDefault(siteStyle:)``); a page at its path (Jekyll's defaults).
    private func jekyllPath(permalink: Permalink, collectionPermalinks: [String: Permalink], collectionDefault: Permalink, date: Date?) throws -> String {
        let own = try fields.string("permalink")
        let collection = path.jekyllCollection
        if path.jekyllFolder == nil, collection == nil, own == nil {
            let folders = path.folders.map(String.init).joined(separator: "/")
            let base = folders.isEmpty ? "/" : "/" + folders + "/"
            return path.stem == "index" ? base : base + path.stem + ".html"
        }
        let template = try own.map { text in
            guard let template = Permalink(validating: text) else {
                throw fields.problem(fields.node("permalink")!, "'permalink' must be a path whose placeholders Jekyll knows (such as /:year/:title/), or a style: date, pretty, ordinal, none")
            }
            return template
        } ?? collection.map { collectionPermalinks[String($0.name)] ?? collectionDefault } ?? permalink
        let slug = try fields.string("slug")?[...] ?? (collection == nil ? name : path.stem)
        // A post's path is its place under `_posts`, its collection `posts`.
        let underPosts: [String] = path.jekyllFolder.map { path.folders[($0 + 1)...].map(String.init) } ?? []
        let documentPath: String = collection?.path ?? (underPosts + [String(path.stem)]).joined(separator: "/")
        var values: [String: String] = [
            "title": Slug.jekyll(slug), "slug": Slug.jekyllDefault(slug), "name": Slug.jekyllDefault(path.stem), "output_ext": ".html",
            "collection": collection.map { String($0.name) } ?? "posts", "path": documentPath,
        ]
        values["categories"] = try categories().map { Slug.jekyll($0.lowercased()[...]) }.filter { !$0.isEmpty }
            .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.joined(separator: "/")
        if let date {
            let civil = zone.civilTime(at: date)
            values["year"] = String(format: "%04d", civil.year)
            values["short_year"] = String(format: "%02d", civil.year % 100)
            values["month"] = String(format: "%02d", civil.month)
            values["i_month"] = String(civil.month)
            values["day"] = String(format: "%02d", civil.day)
            values["i_day"] = String(civil.day)
            values["y_day"] = String(format: "%03d", civil.dayOfYear)
            values["hour"] = String(format: "%02d", civil.hour)
            values["minute"] = String(format: "%02d", civil.minute)
            values["second"] = String(format: "%02d", civil.second)
        }
        return template.path(with: values)
    }
}
