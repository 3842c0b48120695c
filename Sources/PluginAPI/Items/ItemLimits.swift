/// The bounds an item must respect to be accepted by the index.
public struct ItemLimits: Sendable, Hashable {
    /// The bounds used unless a caller chooses others.
    public static let standard = ItemLimits()

    /// Longest unique identifier, in UTF-8 bytes.
    public var maxIdentifierBytes = 1024
    /// Longest domain identifier, in UTF-8 bytes.
    public var maxDomainBytes = 255
    /// Longest title, display name or content type, in UTF-8 bytes.
    public var maxShortTextBytes = 4096
    /// Longest content description, in UTF-8 bytes.
    public var maxDescriptionBytes = 64 * 1024
    /// Most keywords on one item.
    public var maxKeywords = 100
    /// Longest keyword, in UTF-8 bytes.
    public var maxKeywordBytes = 256
    /// Most author names on one item.
    public var maxAuthorNames = 20
    /// Longest author name, in UTF-8 bytes.
    public var maxAuthorNameBytes = 256
    /// Groups an item's `access` names at most, and the longest group name.
    public var maxAccessGroups = 100
    public var maxAccessGroupBytes = 256
    /// Longest `version`, in UTF-8 bytes.
    public var maxVersionBytes = 64
    /// Longest URL (thumbnail or content), in UTF-8 bytes.
    public var maxURLBytes = 4096
    /// Largest decoded thumbnail.
    public var maxThumbnailBytes = 1024 * 1024

    public init() {}
}
