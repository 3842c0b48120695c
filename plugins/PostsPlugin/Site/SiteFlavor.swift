/// The static site generators whose conventions the `posts` plugin follows: what front matter means, which posts
/// are published, and at which URL.
public enum SiteFlavor: String, Sendable, CaseIterable, Decodable {
    case jekyll, hugo, zola

    /// The flavor of one file when the source names none: Jekyll for a file under `_posts` or `_drafts`, or named
    /// `YYYY-MM-DD-title` with YAML front matter (Jekyll collections, `_docs/`, need `flavor: jekyll`: Hugo sites
    /// have `_` folders too); Zola for TOML front matter with an `[extra]` or `[taxonomies]`
    /// table or a key only Zola reads; Hugo otherwise (it reads all three formats).
    static func detect(path: PostPath, format: FrontMatterBlock.Format?, keys: [String]) -> SiteFlavor {
        if path.jekyllFolder != nil { return .jekyll }
        if format == .yaml || format == nil, path.jekyllDatePrefix != nil { return .jekyll }
        if format == .toml, !zolaKeys.isDisjoint(with: keys) { return .zola }
        return .hugo
    }

    /// Keys of Zola's front matter that Hugo does not read.
    static let zolaKeys: Set<String> = [
        "extra", "taxonomies", "path", "updated", "in_search_index", "render", "insert_anchor_links", "sort_by",
        "paginate_by", "transparent", "page_template", "authors",
    ]

    /// Whether a post dated in the future is published (Jekyll's `future` and Hugo's `buildFuture` default to no;
    /// Zola publishes it).
    var publishesFuture: Bool { self == .zola }

    /// The keywords one text under a taxonomy key stands for: Jekyll splits it on spaces (`tags: cheese wine`);
    /// Hugo and Zola read it as one term, except `keywords`, which is a comma-separated list in HTML's tradition.
    func terms(in text: String, key: String) -> [String] {
        if self == .jekyll { return text.split(whereSeparator: \.isWhitespace).map(String.init) }
        if key == "keywords" { return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        return [text]
    }
}
