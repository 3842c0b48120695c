public import PluginAPI

/// An indexed item as `GET /items/{id}` and `scheduler item --json` show it: the fields of a search hit, without a
/// score, and the media type of its stored thumbnail (whose bytes are served apart).
public struct ItemDocument: Sendable, Hashable, Encodable {
    /// The item's fields, as a hit shows them.
    public var fields: SearchHit
    /// The media type of the stored thumbnail (`image/png`…), `nil` when none is stored or its bytes are not a PNG,
    /// JPEG, GIF or WebP image (such bytes are never served).
    public var thumbnailType: String?

    public init(_ item: SearchableItem) {
        fields = SearchHit(item, score: 0)
        thumbnailType = item.thumbnailData.flatMap(ThumbnailFormat.init(sniffing:))?.mediaType
    }

    /// Encodes every key, absent values as `null`, as a search hit does.
    public func encode(to encoder: any Encoder) throws {
        try fields.encodeItemFields(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(thumbnailType, forKey: .thumbnailType)
    }

    private enum CodingKeys: String, CodingKey {
        case thumbnailType
    }
}
