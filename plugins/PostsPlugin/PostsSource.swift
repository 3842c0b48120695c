import Foundation
import Logging
public import PluginAPI

/// The `posts` plugin: a folder of Markdown posts as Jekyll, Hugo and Zola sites hold them, one item per
/// published post.
///
/// Front matter in YAML (`---`), TOML (`+++`) or JSON (`{`) is read by the conventions of the site's generator
/// (``SiteFlavor``, detected per file unless the source names one): drafts, unpublished, future and expired posts are
/// skipped; the identifier is the post's URL path as the generator publishes it; the description is the front
/// matter's, or the first prose paragraph of the Markdown (parsed by the system cmark). Files outside the folder
/// (through `..` or symbolic links) are never read, even in a race (see `ContentFolder`). A file with broken front
/// matter is reported with its path and line, and skipped.
public struct PostsSource: SourcePlugin {
    public struct Options: Decodable, Sendable {
        /// The folder of posts; relative to the config folder; `{partition}` is replaced per unit.
        public var directory: String
        /// File name extensions read; `md` and `markdown` by default.
        public var extensions: [String]?
        /// Largest file read; larger ones are skipped as rejected.
        public var maxFileBytes: Int?
        /// The generator whose conventions every file follows; detected per file when absent.
        public var flavor: String?
        /// Jekyll's permalink for posts without their own: a style (`date`, `pretty`, `ordinal`, `none`) or a template.
        public var permalink: String?
        /// Whether future-dated posts are published (default: no for Jekyll and Hugo, yes for Zola).
        public var future: Bool?
        /// The zone of dates written without one (the site's `timezone`); UTC by default.
        public var timeZone: String?
        /// The site's address; items' `contentURL` is it followed by the post's URL path.
        public var baseURL: String?
        /// The site's configuration file (`_config.yml`, `hugo.toml`, Zola's `config.toml`), read for what the options
        /// above leave unset and for Hugo's `permalinks` and `uglyURLs` (``SiteSettings``).
        public var site: String?
        /// `none` (the default), `h2` or `h3`: besides each page's item, one per section starting at a heading of that
        /// level or above (``PostSections``).
        public var sections: String?
        /// Documentation published in several versions side by side: each version's folder and the current one
        /// (``DocsVersions``); read from a Hugo Docsy site's `params.versions` when the site's file lists them.
        public var versions: Versions?

        public init(
            directory: String, extensions: [String]? = nil, maxFileBytes: Int? = nil, flavor: String? = nil, permalink: String? = nil,
            future: Bool? = nil, timeZone: String? = nil, baseURL: String? = nil, site: String? = nil, sections: String? = nil,
            versions: Versions? = nil
        ) {
            self.directory = directory
            self.extensions = extensions
            self.maxFileBytes = maxFileBytes
            self.flavor = flavor
            self.permalink = permalink
            self.future = future
            self.timeZone = timeZone
            self.baseURL = baseURL
            self.site = site
            self.sections = sections
            self.versions = versions
        }
    }

    /// An incremental run reads only the files that changed since the last state, and deletes the items of those gone.
    public static let sync: SyncSupport = [.incremental]
    public static let kind = "posts"
    public static let summary = "Markdown posts of a Jekyll, Hugo or Zola site (YAML, TOML or JSON front matter), as the generator publishes them."
    public static let options = [
        PluginOption("directory", "the folder of posts, relative to the config folder; {partition} is replaced per unit", required: true),
        PluginOption("extensions", "file name extensions read (default [md, markdown])"),
        PluginOption("maxFileBytes", "largest file read; larger files are rejected (default 1048576)"),
        PluginOption("flavor", "jekyll, hugo or zola: the generator whose conventions the posts follow (default: detected per file)"),
        PluginOption("permalink", "Jekyll posts' URL: date, pretty, ordinal, none or a template such as /:categories/:year/:month/:day/:title/ (default date, Jekyll's)"),
        PluginOption("future", "publish posts dated in the future (default false; true for Zola)"),
        PluginOption("timeZone", "the IANA zone of dates written without one, as the site's timezone (default UTC)"),
        PluginOption("baseURL", "the site's address, such as https://example.com: items link to it followed by the post's path"),
        PluginOption("site", "the site's configuration file (_config.yml, hugo.toml, config.toml), relative to the config folder: its permalinks, URL and time zone, where the options leave them unset"),
        PluginOption("sections", "none, h2 or h3: besides each page, one item per section (## headings, or ## and ###) at the page's URL and the heading's anchor (default none)"),
        PluginOption("versions", "docs published in versions side by side: {folder: docs/{version}, current: v3.7}, the folder relative to directory; each page's items carry their version, and a search without version= finds the current one (default: a Hugo Docsy site's params.versions, else none)"),
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
        _ = try flavor(options)
        _ = try sectionDepth(options)
        _ = try permalink(options)
        _ = try zone(options)
        try validate(options.versions, site: options.site)
        if let baseURL = options.baseURL {
            guard let url = URL(string: baseURL), let scheme = url.scheme, !scheme.isEmpty, url.host?.isEmpty == false, url.query == nil, url.fragment == nil else {
                throw PluginOptionError(option: "baseURL", reason: "must be an absolute URL without query or fragment, such as https://example.com or https://example.com/blog")
            }
        }
    }

    /// The folder of each unit must exist and be one a run reads (not under `/proc`, `/sys` or `/dev`); the site's
    /// configuration, when named, must exist and be named as one. Its content is the site's, not the config's: it is
    /// read by each run, and a problem in it fails that run only.
    public static func validate(_ options: Options, in context: PluginValidationContext) throws(PluginOptionError) {
        try validate(options)
        if let site = options.site {
            let path = context.resolve(path: site)
            if let problem = SiteSettings.nameProblem(path) ?? ConfigPathRule.problem(with: path, expecting: .file) {
                throw PluginOptionError(option: "site", reason: problem)
            }
            guard FileManager.default.fileExists(atPath: path) else {
                throw PluginOptionError(option: "site", reason: "\(path) does not exist; name the site's _config.yml, hugo.toml or config.toml")
            }
        }
        for partition in context.units {
            let path = context.resolve(path: folderPath(options, partition: partition))
            if let problem = ConfigPathRule.problem(with: path, expecting: .folder) {
                throw PluginOptionError(option: "directory", reason: problem)
            }
            // A folder not there yet (a volume not mounted, a sidecar still cloning) fails its unit's runs, retried by
            // backoff, not the configuration: the other sources run, and the unit runs once the folder appears.
            if !FileManager.default.fileExists(atPath: path) {
                context.warnings.warn(PluginOptionError(
                    option: "directory", reason: "\(path) does not exist (yet): its unit fails and is retried until it does; create it or point 'directory' at the site's posts"
                ))
            }
        }
    }

    /// A `versions` option whose folder is a pattern and whose current version an item can carry; without a site
    /// file to complete it, both named.
    private static func validate(_ versions: Versions?, site: String?) throws(PluginOptionError) {
        guard let versions else { return }
        if let problem = versions.folder.flatMap(DocsVersions.patternProblem) ?? versions.current.flatMap(DocsVersions.versionProblem) {
            throw PluginOptionError(option: "versions", reason: problem)
        }
        if site == nil { _ = try DocsVersions.combining(versions, site: nil) }
    }

    /// The unit's folder as the options write it: `{partition}` replaced.
    private static func folderPath(_ options: Options, partition: String?) -> String {
        options.directory.replacingOccurrences(of: "{partition}", with: partition ?? "")
    }

    private static func flavor(_ options: Options) throws(PluginOptionError) -> SiteFlavor? {
        guard let name = options.flavor else { return nil }
        guard let flavor = SiteFlavor(rawValue: name) else {
            throw PluginOptionError(option: "flavor", reason: "'\(name.prefix(40))' is not one of jekyll, hugo, zola (leave it out to detect each file's)")
        }
        return flavor
    }

    /// The deepest heading level starting a section, `nil` for none.
    private static func sectionDepth(_ options: Options) throws(PluginOptionError) -> Int? {
        switch options.sections {
        case nil, "none": return nil
        case "h2": return 2
        case "h3": return 3
        case let other?: throw PluginOptionError(option: "sections", reason: "'\(other.prefix(40))' is not one of none, h2, h3")
        }
    }

    private static func permalink(_ options: Options) throws(PluginOptionError) -> Permalink {
        guard let text = options.permalink else { return .standard }
        guard let permalink = Permalink(validating: text) else {
            let unknown = Permalink.unknownPlaceholder(in: Permalink.styles[text] ?? text)
            throw PluginOptionError(option: "permalink", reason: unknown.map { "':\($0)' is not a Jekyll placeholder; use \(Permalink.placeholders.sorted().map { ":" + $0 }.joined(separator: ", "))" }
                ?? "must be date, pretty, ordinal, none or a path, such as /:categories/:year/:month/:day/:title/")
        }
        return permalink
    }

    /// The versions the option names, completed by the site's file (a problem there is the `site` option's).
    private static func versions(_ options: Options, site: SiteSettings) throws(PluginOptionError) -> DocsVersions? {
        do {
            return try DocsVersions.combining(options.versions, site: site.docsVersions)
        } catch where options.site != nil && options.versions == nil {
            throw PluginOptionError(option: "site", reason: "\(options.site ?? ""): \(error.reason)")
        }
    }

    private static func zone(_ options: Options) throws(PluginOptionError) -> TimeZone {
        guard let name = options.timeZone else { return .utc }
        guard let zone = TimeZone(identifier: name), name.contains("/") || name == "UTC" else {
            throw PluginOptionError(option: "timeZone", reason: "'\(name.prefix(60))' is not an IANA time zone name such as Europe/Paris or UTC")
        }
        return zone
    }

    /// `options` with what the site's configuration at `path` says where they are unset, and its Hugo settings;
    /// problems are the `site` option's.
    private static func settings(_ options: Options, site path: String) throws(PluginOptionError) -> (Options, SiteSettings) {
        let site: SiteSettings
        do {
            site = try SiteSettings.read(path: path)
        } catch {
            throw PluginOptionError(option: "site", reason: error.description)
        }
        var effective = options
        effective.permalink = options.permalink ?? site.permalink
        effective.timeZone = options.timeZone ?? site.timeZone
        effective.baseURL = options.baseURL ?? site.baseURL
        do {
            try validate(effective)
        } catch {
            // The options alone were valid: the value at fault is the site's.
            throw PluginOptionError(option: "site", reason: "\(path): its \(error.option) \(error.reason)")
        }
        return (effective, site)
    }

    let folder: URL
    /// The digest of the settings every file's items depend on: the effective options and the site file.
    let settingsDigest: String
    let extensions: Set<String>
    let maxFileBytes: Int
    let reader: PostReader
    let context: PluginContext

    public init(options given: Options, context: PluginContext) throws {
        try Self.validate(given)
        // The site's file as named; else a Jekyll site's own `_config.yml` when the folder is the site's root.
        let folderPath = context.resolve(path: Self.folderPath(given, partition: context.partition))
        let jekyllConfig = (folderPath as NSString).appendingPathComponent("_config.yml")
        let mayBeJekyll = given.flavor == nil || given.flavor == SiteFlavor.jekyll.rawValue
        let sitePath = given.site.map { context.resolve(path: $0) }
            ?? (mayBeJekyll && FileManager.default.fileExists(atPath: jekyllConfig) ? jekyllConfig : nil)
        let (options, site) = try sitePath.map { path throws(PluginOptionError) in try Self.settings(given, site: path) } ?? (given, SiteSettings())
        if let problem = ConfigPathRule.problem(with: folderPath, expecting: .folder) {
            throw PluginOptionError(option: "directory", reason: problem)
        }
        folder = URL(fileURLWithPath: folderPath)
        let versions = try Self.versions(options, site: site)
        if let problem = versions?.problem(inFolder: folderPath) { throw PluginOptionError(option: "versions", reason: problem) }
        let settings: [String?] = [
            folderPath, options.extensions?.sorted().joined(separator: ","), options.maxFileBytes.map(String.init), options.flavor, options.permalink,
            options.future.map { "\($0)" }, options.timeZone, options.baseURL, options.sections, site.digest,
            options.versions?.folder, options.versions?.current,
        ]
        settingsDigest = ContentDigest.of(settings.map { $0 ?? "-" }.joined(separator: "\n"))
        extensions = Set((options.extensions ?? ["md", "markdown"]).map { $0.lowercased() })
        maxFileBytes = options.maxFileBytes ?? Self.defaultMaxFileBytes
        reader = PostReader(
            flavor: try Self.flavor(options), permalink: try Self.permalink(options), future: options.future, zone: try Self.zone(options),
            baseURL: options.baseURL, hugoPermalinks: site.hugoPermalinks, jekyllCollectionPermalinks: site.jekyllCollectionPermalinks,
            jekyllCollectionDefault: site.jekyllCollectionDefault, jekyllDefaults: site.jekyllDefaults, uglyURLs: site.uglyURLs,
            hugoHeadings: site.hugoHeadings, versions: versions, sectionDepth: try Self.sectionDepth(options),
            domain: context.domain, now: context.now
        )
        self.context = context
    }

    /// Every post of the folder (a full run), or those whose file changed since the state (an incremental run: files of
    /// the same size and modification time are not read, those of the same digest not published again, those gone
    /// have their items deleted); then the state of every file. A section page (`_index.md`) that changed, or
    /// settings that did, make the state of no use (``SyncStateUnusable``): a full run follows.
    public func produce(into sink: inout some ItemSink) async throws {
        let posts = try openFolder()
        let files = try posts.files(withExtensions: extensions).filter(Self.isContent)
        let previous = try context.mode == .incremental ? context.state.map { try PostsState.decode($0, settings: settingsDigest) } : nil
        var state = PostsState(settings: settingsDigest)
        var tally = Tally()
        if let previous {
            let changedSectionPages = files.filter { PostPath($0).isSection && (try? unchanged($0, in: posts, previous: previous)) == nil }
            let goneSectionPages = previous.files.keys.filter { PostPath($0).isSection && !files.contains($0) }
            if let page = (changedSectionPages + goneSectionPages).first {
                throw SyncStateUnusable("the section page \(page) changed: what it cascades may reach every post")
            }
        }
        let headless = headlessSections(among: files, in: posts)
        // Each identifier (the URL the page is served at) and the file that took it first, in path order.
        var claimed: [String: String] = [:]
        for (path, file) in previous?.files ?? [:] where files.contains(path) {
            for id in file.ids { claimed[id] = path }
        }
        for path in files {
            try Task.checkCancellation()
            if let previous, let kept = try? unchanged(path, in: posts, previous: previous) {
                state.files[path] = kept
                tally.unchanged += 1
                continue
            }
            let attributes = try? posts.attributes(of: path)
            var published: [String] = []
            var digest = ""
            do {
                let text = try self.text(at: path, in: posts)
                digest = ContentDigest.of(text)
                if let old = previous?.files[path], old.digest == digest, let attributes {
                    state.files[path] = PostsState.File(size: attributes.size, modified: attributes.modified, digest: digest, ids: old.ids)
                    tally.unchanged += 1
                    continue
                }
                let folders = path.split(separator: "/").dropLast()
                let inHeadlessSection = folders.indices.contains { headless.contains(folders[...$0].joined(separator: "/")) }
                let read = try reader.read(text, at: path, inHeadlessSection: inHeadlessSection)
                tally.flavors[read.flavor, default: 0] += 1
                published = try await emit(read.outcome, from: path, in: posts, into: &sink, claimed: &claimed, tally: &tally)
                // A post to be published later is read again by every run until it is.
                if case .skipped(.future) = read.outcome { digest = "" }
            } catch let cancelled as CancellationError {
                throw cancelled
            } catch {
                tally.rejected += 1
                context.rejections.reject(path, reason: "\(error)")
            }
            for id in previous?.files[path]?.ids ?? [] where !published.contains(id) && claimed[id] == path {
                claimed[id] = nil
                try await sink.delete(identifier: id)
                tally.deleted += 1
            }
            if let attributes, !digest.isEmpty {
                state.files[path] = PostsState.File(size: attributes.size, modified: attributes.modified, digest: digest, ids: published)
            }
        }
        for (path, file) in previous?.files ?? [:] where !files.contains(path) {
            for id in file.ids where claimed[id] == nil {
                try await sink.delete(identifier: id)
                tally.deleted += 1
            }
        }
        // Some 10,000 files make a state too large to keep: such a site is read whole every run.
        try await sink.send(finalState: state, context: context)
        context.logger.info("posts read", metadata: tally.metadata)
    }

    /// The state's entry for `path` when the file has the size and modification time the state has for it; `nil` else.
    private func unchanged(_ path: String, in posts: ContentFolder, previous: PostsState) throws -> PostsState.File? {
        guard let old = previous.files[path] else { return nil }
        let attributes = try posts.attributes(of: path)
        return attributes.size == old.size && attributes.modified == old.modified ? old : nil
    }

    /// Sends the items of one file's `outcome` (its page's and its sections'), each identifier once in the run: a
    /// later file at an identifier another holds is refused, naming the first. Returns the identifiers sent.
    private func emit(
        _ outcome: PostReader.Outcome, from path: String, in posts: ContentFolder, into sink: inout some ItemSink,
        claimed: inout [String: String], tally: inout Tally
    ) async throws -> [String] {
        switch outcome {
        case .skipped(let reason):
            tally.skipped[reason, default: 0] += 1
            context.logger.debug("post not published", metadata: ["path": "\(path)", "reason": "\(reason)"])
            return []
        case .item(var item, let image, let sections):
            tally.read += 1
            if let image {
                let ignored = PostImage.apply(image, from: path, in: posts, baseURL: reader.baseURL, to: &item)
                tally.images[ignored.map { "ignored_" + $0.rawValue } ?? (item.thumbnailData != nil ? "read" : "linked"), default: 0] += 1
                if let ignored {
                    context.logger.debug("post image left out", metadata: ["path": "\(path)", "image": "\(image.text.prefix(200))", "reason": "\(ignored.rawValue)"])
                }
            }
            if let first = claimed[item.uniqueIdentifier], first != path {
                tally.rejected += 1
                context.rejections.reject(path, reason: "published at '\(item.uniqueIdentifier)', as \(first) is (read first); give one of them its own permalink or slug")
                return []
            }
            claimed[item.uniqueIdentifier] = path
            context.logger.debug("post read", metadata: ["path": "\(path)", "id": "\(item.uniqueIdentifier)"])
            try await sink.send(item)
            var sent = [item.uniqueIdentifier]
            for (reason, count) in sections.leftOut { tally.sectionsLeftOut[reason, default: 0] += count }
            for section in sections.items {
                if let first = claimed[section.uniqueIdentifier], first != path || sent.contains(section.uniqueIdentifier) {
                    tally.sectionsLeftOut["duplicate", default: 0] += 1
                    context.rejections.reject(
                        path, reason: "a section published at '\(section.uniqueIdentifier)', as \(first) has it (read first); give the heading its own {#id}"
                    )
                    continue
                }
                claimed[section.uniqueIdentifier] = path
                tally.sections += 1
                try await sink.send(section)
                sent.append(section.uniqueIdentifier)
            }
            return sent
        }
    }

    /// Folders generators keep for themselves, never content.
    static let reservedFolders: Set<Substring> = ["_layouts", "_includes", "_site", "_data", "_sass", "_plugins", "node_modules", "vendor"]

    /// Whether a path can hold content: not under a folder the generators keep for themselves (Jekyll's `_layouts`,
    /// `_includes`, `_site`, `_data`, `_sass`, `_plugins`; `node_modules`, `vendor`). Hidden ones are never listed.
    static func isContent(_ path: String) -> Bool {
        path.split(separator: "/").dropLast().allSatisfy { !reservedFolders.contains($0) }
    }

    /// The posts folder, opened: a folder that cannot be opened fails the run (nothing is deleted).
    func openFolder() throws(ContentFolder.Refusal) -> ContentFolder {
        try ContentFolder(path: folder.path)
    }

    /// The flavor and outcome of the post at `relativePath` in `posts`; throws a reason to reject it.
    func read(_ relativePath: String, in posts: ContentFolder, inHeadlessSection: Bool = false) throws -> (flavor: SiteFlavor, outcome: PostReader.Outcome) {
        try reader.read(try text(at: relativePath, in: posts), at: relativePath, inHeadlessSection: inHeadlessSection)
    }

    private func text(at relativePath: String, in posts: ContentFolder) throws -> String {
        guard let text = String(data: try posts.read(relativePath, maxBytes: maxFileBytes), encoding: .utf8) else {
            throw PostRejection("not UTF-8 text")
        }
        return text
    }

    /// The folders whose Hugo section page (`_index.md`) cascades `build: {render: never}` to what it holds
    /// (shared snippets, such as the Hugo documentation's `_common`).
    private func headlessSections(among files: [String], in posts: ContentFolder) -> Set<String> {
        guard reader.flavor == nil || reader.flavor == .hugo else { return [] }
        return Set(files.filter { PostPath($0).isSection }.compactMap { path in
            guard let text = try? text(at: path, in: posts), reader.cascadesHeadless(text) else { return nil }
            return path.split(separator: "/").dropLast().joined(separator: "/")
        })
    }

    /// The item of the post at `relativePath`, `nil` when it is not published.
    func item(at relativePath: String, in posts: ContentFolder) throws -> SearchableItem? {
        guard case .item(var item, let image, _) = try read(relativePath, in: posts).outcome else { return nil }
        if let image { _ = PostImage.apply(image, from: relativePath, in: posts, baseURL: reader.baseURL, to: &item) }
        return item
    }

    /// What a run read, for its log line.
    private struct Tally {
        var flavors: [SiteFlavor: Int] = [:]
        var skipped: [PostReader.Skip: Int] = [:]
        var rejected = 0
        /// Images made thumbnails (`read`: a file, `linked`: an address) and left out (`ignored_<reason>`).
        var images: [String: Int] = [:]
        /// Section items sent, and headings left out by reason (``PostSections/leftOut``, `duplicate`).
        var sections = 0
        var sectionsLeftOut: [String: Int] = [:]
        /// Posts published by this run, files an incremental run did not read again, items deleted.
        var read = 0
        var unchanged = 0
        var deleted = 0

        var metadata: Logger.Metadata {
            var metadata: Logger.Metadata = ["rejected": "\(rejected)"]
            for flavor in SiteFlavor.allCases { metadata[flavor.rawValue] = "\(flavors[flavor] ?? 0)" }
            for reason in PostReader.Skip.allCases { metadata["skipped_\(reason.rawValue)"] = "\(skipped[reason] ?? 0)" }
            for outcome in ["read", "linked"] + PostImage.Ignored.allCases.map({ "ignored_" + $0.rawValue }) {
                metadata["images_" + outcome] = "\(images[outcome] ?? 0)"
            }
            metadata["sections"] = "\(sections)"
            metadata["published"] = "\(read)"
            metadata["unchanged"] = "\(unchanged)"
            metadata["deleted"] = "\(deleted)"
            for (reason, count) in sectionsLeftOut { metadata["sections_left_out_" + reason] = "\(count)" }
            return metadata
        }
    }
}
