public import Foundation
public import PluginAPI

/// An indexed item as `GET /items/{id}` and `scheduler item --json` show it: the fields of a search hit, without a
/// score, and the media type of its stored thumbnail (whose bytes are served apart).
public struct ItemDocument: Sendable, Hashable, Encodable {
    public var uniqueIdentifier: String
    public var domainIdentifier: String
    public var contentType: String
    public var title: String?
    public var displayName: String?
    public var contentDescription: String?
    public var keywords: [String]
    public var contentURL: String?
    public var thumbnailURL: String?
    /// The media type of the stored thumbnail (`image/png`…), `nil` when none is stored or its bytes are not a PNG,
    /// JPEG, GIF or WebP image (such bytes are never served).
    public var thumbnailType: String?
    public var rankingHint: Int?
    public var expirationDate: Date?

    public init(_ item: SearchableItem) {
        uniqueIdentifier = item.uniqueIdentifier
        domainIdentifier = item.domainIdentifier
        contentType = item.contentType
        title = item.title
        displayName = item.displayName
        contentDescription = item.contentDescription
        keywords = item.keywords
        contentURL = item.contentURL
        thumbnailURL = item.thumbnailURL
        thumbnailType = item.thumbnailData.flatMap(ThumbnailFormat.init(sniffing:))?.mediaType
        rankingHint = item.rankingHint
        expirationDate = item.expirationDate
    }

    /// Encodes every key, absent values as `null`, as a search hit does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uniqueIdentifier, forKey: .uniqueIdentifier)
        try container.encode(domainIdentifier, forKey: .domainIdentifier)
        try container.encode(contentType, forKey: .contentType)
        try container.encode(title, forKey: .title)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(contentDescription, forKey: .contentDescription)
        try container.encode(keywords, forKey: .keywords)
        try container.encode(contentURL, forKey: .contentURL)
        try container.encode(thumbnailURL, forKey: .thumbnailURL)
        try container.encode(thumbnailType, forKey: .thumbnailType)
        try container.encode(rankingHint, forKey: .rankingHint)
        try container.encode(expirationDate, forKey: .expirationDate)
    }

    private enum CodingKeys: String, CodingKey {
        case uniqueIdentifier, domainIdentifier, contentType, title, displayName, contentDescription, keywords, contentURL
        case thumbnailURL, thumbnailType, rankingHint, expirationDate
    }
}
