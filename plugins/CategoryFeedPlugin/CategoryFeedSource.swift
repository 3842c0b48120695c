import Foundation
public import PluginAPI

/// The `category-feed` plugin: a JSON feed of categories (from an `http(s)://` URL or a file), each indexed
/// with its thumbnail.
///
/// With `thumbnails: required` (the default) a category is indexed only once its image has downloaded; one
/// whose image URL is missing or invalid, or whose download fails, is skipped and counted as rejected. With
/// `optional` a failed download leaves the item without thumbnail; with `none` nothing is downloaded.
/// Downloads run `concurrency` at a time, each with a timeout and a size cap, accept image content types only,
/// over `http` and `https` only, from `allowedHosts` when given, never from internal addresses (unless
/// `allowPrivateNetworks`), and follow no redirects. The feed request has a timeout, follows up to 5 redirects
/// (each checked like an image URL) and is retried with backoff; a feed that still fails fails the run (nothing
/// is deleted).
public struct CategoryFeedSource: SourcePlugin {
    /// What to do with each category's image.
    public enum Thumbnails: String, Decodable, Sendable {
        case required, optional, none
    }

    public struct Options: Decodable, Sendable {
        public var feed: String
        public var thumbnails: Thumbnails?
        public var concurrency: Int?
        public var timeout: DurationOption?
        public var maxImageBytes: Int?
        public var allowedHosts: [String]?
        public var retries: Int?
        /// Lets image URLs and feed redirects reach loopback, private and link-local addresses (default false).
        public var allowPrivateNetworks: Bool?

        public init(
            feed: String, thumbnails: Thumbnails? = nil, concurrency: Int? = nil, timeout: DurationOption? = nil,
            maxImageBytes: Int? = nil, allowedHosts: [String]? = nil, retries: Int? = nil, allowPrivateNetworks: Bool? = nil
        ) {
            self.allowPrivateNetworks = allowPrivateNetworks
            self.feed = feed
            self.thumbnails = thumbnails
            self.concurrency = concurrency
            self.timeout = timeout
            self.maxImageBytes = maxImageBytes
            self.allowedHosts = allowedHosts
            self.retries = retries
        }
    }

    /// An incremental run asks the feed with the last validators (a conditional GET) and deletes the categories gone.
    public static let sync: SyncSupport = [.incremental]
    public static let kind = "category-feed"
    public static let summary = "A JSON feed of categories (id, name, keywords, metaDescription, imageURL), indexed with their thumbnails."
    public static let options = [
        PluginOption("feed", "an http(s):// URL or a file path (relative to the config folder); {partition} is replaced per unit", required: true),
        PluginOption("thumbnails", "required (default: a category without a downloaded image is skipped), optional, or none"),
        PluginOption("concurrency", "image downloads at a time, 1–64 (default 8)"),
        PluginOption("timeout", "for the feed request and each image download (default 10s)"),
        PluginOption("maxImageBytes", "largest image accepted, at most 1048576 (default)"),
        PluginOption("allowedHosts", "the only hosts images are downloaded from (default: any)"),
        PluginOption("retries", "further attempts of a failing feed request, 0–10 (default 3), with backoff"),
        PluginOption("allowPrivateNetworks", "true lets image URLs and feed redirects reach loopback, private and link-local addresses (default false)"),
    ]
    static let maxFeedBytes = 64 << 20

    public static func validate(_ options: Options) throws(PluginOptionError) {
        guard !options.feed.isEmpty else { throw PluginOptionError(option: "feed", reason: "must be a URL or a file path") }
        if options.feed.contains("://"), !(options.feed.hasPrefix("http://") || options.feed.hasPrefix("https://")) {
            throw PluginOptionError(option: "feed", reason: "only http://, https:// or a file path are read")
        }
        if let concurrency = options.concurrency, !(1...64).contains(concurrency) {
            throw PluginOptionError(option: "concurrency", reason: "must be between 1 and 64")
        }
        if let timeout = options.timeout, timeout.duration < .milliseconds(100) {
            throw PluginOptionError(option: "timeout", reason: "must be at least 100ms")
        }
        if let cap = options.maxImageBytes, !(1...ItemLimits.standard.maxThumbnailBytes).contains(cap) {
            throw PluginOptionError(option: "maxImageBytes", reason: "must be between 1 and \(ItemLimits.standard.maxThumbnailBytes) (an item's thumbnail limit)")
        }
        if let retries = options.retries, !(0...10).contains(retries) {
            throw PluginOptionError(option: "retries", reason: "must be between 0 and 10")
        }
        if let hosts = options.allowedHosts, hosts.isEmpty || hosts.contains(where: { $0.isEmpty || $0.contains("/") }) {
            throw PluginOptionError(option: "allowedHosts", reason: "must list host names, such as [cdn.example.com]")
        }
    }

    let options: Options
    let feed: String
    let context: PluginContext

    public init(options: Options, context: PluginContext) throws {
        try Self.validate(options)
        self.options = options
        feed = options.feed.replacingOccurrences(of: "{partition}", with: context.partition ?? "")
        self.context = context
    }

    var timeout: Duration { options.timeout?.duration ?? .seconds(10) }
    var concurrency: Int { options.concurrency ?? 8 }
}
