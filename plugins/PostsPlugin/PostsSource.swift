import Foundation
public import PluginAPI

/// The `posts` plugin: a folder of Markdown files with YAML front matter (`title`, `summary`, `tags`,
/// `date`, `slug`, `draft`, `expires`), one item per published post.
///
/// Drafts are skipped. The identifier is the slug, or the file's path in the folder without its extension;
/// the description is the summary, or the first paragraph as plain text; tags become keywords; `expires`
/// becomes the expiration date. Files outside the folder (through `..` or symbolic links) are never read, even
/// in a race (see `ContentFolder`). A file with broken front matter is reported with its path and line, and skipped.
public struct PostsSource: SourcePlugin {
    public struct Options: Decodable, Sendable {
        /// The folder of posts; relative to the config folder; `{partition}` is replaced per unit.
        public var directory: String
        /// File name extensions read; `md` and `markdown` by default.
        public var extensions: [String]?
        /// Largest file read; larger ones are skipped as rejected.
        public var maxFileBytes: Int?

        public init(directory: String, extensions: [String]? = nil, maxFileBytes: Int? = nil) {
            self.directory = directory
            self.extensions = extensions
            self.maxFileBytes = maxFileBytes
        }
    }

    public static let kind = "posts"
    public static let summary = "Markdown posts with YAML front matter from a folder: title, summary, tags, slug, draft, expires."
    public static let options = [
        PluginOption("directory", "the folder of posts, relative to the config folder; {partition} is replaced per unit", required: true),
        PluginOption("extensions", "file name extensions read (default [md, markdown])"),
        PluginOption("maxFileBytes", "largest file read; larger files are rejected (default 1048576)"),
    ]
    static let defaultMaxFileBytes = 1 << 20

    public static func validate(_ options: Options) throws(PluginOptionError) {
        guard !options.directory.isEmpty else {
            throw PluginOptionError(option: "directory", reason: "must name a folder, such as ../content/posts")
        }
        if let extensions = options.extensions, extensions.isEmpty || extensions.contains(where: { $0.isEmpty || $0.contains("/") }) {
            throw PluginOptionError(option: "extensions", reason: "must list extensions without dots or slashes, such as [md]")
        }
        if let cap = options.maxFileBytes, cap < 1 {
            throw PluginOptionError(option: "maxFileBytes", reason: "must be a positive number of bytes")
        }
    }

    let folder: URL
    let extensions: Set<String>
    let maxFileBytes: Int
    let context: PluginContext

    public init(options: Options, context: PluginContext) throws {
        try Self.validate(options)
        let directory = options.directory.replacingOccurrences(of: "{partition}", with: context.partition ?? "")
        let path = context.resolve(path: directory)
        if let problem = ConfigPathRule.problem(with: path, expecting: .folder) {
            throw PluginOptionError(option: "directory", reason: problem)
        }
        folder = URL(fileURLWithPath: path)
        extensions = Set((options.extensions ?? ["md", "markdown"]).map { $0.lowercased() })
        maxFileBytes = options.maxFileBytes ?? Self.defaultMaxFileBytes
        self.context = context
    }

    public func produce(into sink: inout some ItemSink) async throws {
        let posts = try openFolder()
        for path in try posts.files(withExtensions: extensions) {
            try Task.checkCancellation()
            let item: SearchableItem?
            do {
                item = try self.item(at: path, in: posts)
            } catch {
                context.rejections.reject(path, reason: "\(error)")
                continue
            }
            if let item { try await sink.send(item) }
        }
    }

    /// The posts folder, opened: a folder that cannot be opened fails the run (nothing is deleted).
    func openFolder() throws(ContentFolder.Refusal) -> ContentFolder {
        try ContentFolder(path: folder.path)
    }

    /// The item of the post at `relativePath` in `posts`, `nil` for a draft; throws a reason to reject it.
    func item(at relativePath: String, in posts: ContentFolder) throws -> SearchableItem? {
        guard let text = String(data: try posts.read(relativePath, maxBytes: maxFileBytes), encoding: .utf8) else {
            throw Rejection("not UTF-8 text")
        }

        let post = try FrontMatter(parsing: text)
        if try post.flag("draft") { return nil }
        let stem = relativePath.split(separator: ".").dropLast().joined(separator: ".")
        var item = SearchableItem(
            uniqueIdentifier: try post.string("slug") ?? stem,
            domainIdentifier: context.domain,
            title: try post.string("title") ?? URL(fileURLWithPath: stem).lastPathComponent
        )
        item.contentType = "public.text"
        item.contentDescription = try post.string("summary") ?? MarkdownText.firstParagraph(of: post.body)
        item.keywords = try post.list("tags")
        item.expirationDate = try post.date("expires")
        // `date` is not indexed, but a malformed one is reported like any broken front matter.
        _ = try post.date("date")
        return item
    }

    /// Why a file was skipped.
    struct Rejection: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
