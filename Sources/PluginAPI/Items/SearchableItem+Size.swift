extension SearchableItem {
    /// About how many bytes the item holds: its texts in UTF-8 and its thumbnail. What batches are bounded by.
    public var byteCount: Int {
        let texts = [uniqueIdentifier, domainIdentifier, contentType, title, displayName, contentDescription, thumbnailURL, contentURL, relatedUniqueIdentifier, version]
        return texts.reduce(0) { $0 + ($1?.utf8.count ?? 0) } + (keywords + authorNames + (access ?? [])).reduce(0) { $0 + $1.utf8.count }
            + (thumbnailData?.count ?? 0)
    }
}
