public import Foundation

/// One searchable thing, named as Core Spotlight names it: what a source plugin produces and the index stores.
///
/// Items are upserted by ``uniqueIdentifier``; ``domainIdentifier`` groups them hierarchically
/// (`com.shop.categories.fr` lies inside `com.shop.categories`), so a whole group can be deleted at once.
public struct SearchableItem: Sendable, Hashable {
    /// The content type when an item does not name one.
    public static let defaultContentType = "public.item"

    /// Identifies the item within the whole index; a later item with the same identifier replaces it.
    public var uniqueIdentifier: String
    /// The dot-separated, hierarchical group the item belongs to, such as `com.shop.categories.fr`.
    public var domainIdentifier: String
    /// A uniform type identifier such as `public.item` or `public.image`.
    public var contentType: String
    /// The main text shown for the item; ranks highest in search.
    public var title: String?
    /// An alternative, localized name; ranks below the title.
    public var displayName: String?
    /// The longer description; ranks lowest.
    public var contentDescription: String?
    /// Extra words the item should be found by; rank above the description.
    public var keywords: [String]
    /// Who made the content (Core Spotlight's `authorNames`); searchable, ranked as keywords.
    public var authorNames: [String]
    /// When the content was made (a post's date): what `sort=newest` orders by.
    public var contentCreationDate: Date?
    /// When the content last changed.
    public var contentModificationDate: Date?
    /// Where the thumbnail came from.
    public var thumbnailURL: String?
    /// The thumbnail itself (base64 in JSON), at most ``ItemLimits/maxThumbnailBytes``.
    public var thumbnailData: Data?
    /// The deep link that opens the item in the app.
    public var contentURL: String?
    /// The item this one is part of (Core Spotlight's `relatedUniqueIdentifier`): a page's section names its page.
    public var relatedUniqueIdentifier: String?
    /// 0 to 100: lifts the item in search results.
    public var rankingHint: Int?
    /// The groups whose members may find the item (Elastic's document-level security): `nil` for whoever may search
    /// its domain; otherwise only a tenant token whose `groups` share a name with these. 1 to
    /// ``ItemLimits/maxAccessGroups`` names of 1 to ``ItemLimits/maxAccessGroupBytes`` bytes.
    public var access: [String]?
    /// The version of the documentation the item belongs to (`v3.7`; Core Spotlight's `version`), for a source that
    /// publishes several side by side: searches find it with `version=` naming it. 1 to
    /// ``ItemLimits/maxVersionBytes`` bytes without control characters.
    public var version: String?
    /// Whether ``version`` is the one people land on: a search that names no version finds the items of the current
    /// version and those without one, as DocSearch's default filter does. `false` only with a version.
    public var isCurrentVersion: Bool
    /// After this instant the item is never returned and the next sweep deletes it.
    /// `nil` means the index's default time to live.
    public var expirationDate: Date?

    public init(
        uniqueIdentifier: String,
        domainIdentifier: String,
        contentType: String = SearchableItem.defaultContentType,
        title: String? = nil,
        displayName: String? = nil,
        contentDescription: String? = nil,
        keywords: [String] = [],
        authorNames: [String] = [],
        contentCreationDate: Date? = nil,
        contentModificationDate: Date? = nil,
        thumbnailURL: String? = nil,
        thumbnailData: Data? = nil,
        contentURL: String? = nil,
        relatedUniqueIdentifier: String? = nil,
        rankingHint: Int? = nil,
        access: [String]? = nil,
        version: String? = nil,
        isCurrentVersion: Bool = true,
        expirationDate: Date? = nil
    ) {
        self.uniqueIdentifier = uniqueIdentifier
        self.domainIdentifier = domainIdentifier
        self.contentType = contentType
        self.title = title
        self.displayName = displayName
        self.contentDescription = contentDescription
        self.keywords = keywords
        self.authorNames = authorNames
        self.contentCreationDate = contentCreationDate
        self.contentModificationDate = contentModificationDate
        self.thumbnailURL = thumbnailURL
        self.thumbnailData = thumbnailData
        self.contentURL = contentURL
        self.relatedUniqueIdentifier = relatedUniqueIdentifier
        self.rankingHint = rankingHint
        self.access = access
        self.version = version
        self.isCurrentVersion = isCurrentVersion
        self.expirationDate = expirationDate
    }
}
