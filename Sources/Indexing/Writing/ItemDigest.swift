import Foundation
public import PluginAPI

/// The digest of everything an item's row holds (its own expiration date included, not the one a batch gives it):
/// a store that holds an item with the same digest has nothing of it to rewrite. XXH64 of a canonical encoding,
/// each field tagged and length-prefixed so that no two items encode alike.
public enum ItemDigest {
    /// `item`'s digest, as the signed 64-bit integer the stores keep.
    public static func of(_ item: SearchableItem) -> Int64 {
        var encoding = Encoding(capacity: 256 + (item.thumbnailData?.count ?? 0) + (item.contentDescription?.utf8.count ?? 0))
        encoding.append(item.uniqueIdentifier)
        encoding.append(item.domainIdentifier)
        encoding.append(item.contentType)
        encoding.append(item.title)
        encoding.append(item.displayName)
        encoding.append(item.contentDescription)
        encoding.append(item.keywords)
        encoding.append(item.authorNames)
        encoding.append(item.contentCreationDate)
        encoding.append(item.contentModificationDate)
        encoding.append(item.thumbnailURL)
        encoding.append(item.thumbnailData)
        encoding.append(item.contentURL)
        encoding.append(item.relatedUniqueIdentifier)
        encoding.append(item.rankingHint.map { UInt64(bitPattern: Int64($0)) })
        encoding.append(item.expirationDate)
        // Last, and only when set: the digests of items without them stay those stores already keep. With a version,
        // `access` is written present or absent first (a byte 1 or 0, where alone it starts with its count: 1 to 100,
        // then zeros), then the version and whether it is current.
        if let version = item.version {
            encoding.append(present: item.access)
            encoding.append(version)
            encoding.append(UInt64?(item.isCurrentVersion ? 1 : 0))
        } else if let access = item.access {
            encoding.append(access)
        }
        return Int64(bitPattern: encoding.bytes.withUnsafeBytes { XXHash64.hash($0) })
    }

    /// The canonical encoding: an absent value one byte 0; a present one 1, then its bytes (text and data after
    /// their length), numbers as 8 little-endian bytes.
    private struct Encoding {
        var bytes: [UInt8] = []

        init(capacity: Int) {
            bytes.reserveCapacity(capacity)
        }

        mutating func append(_ value: UInt64) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func append(_ value: UInt64?) {
            guard let value else { return bytes.append(0) }
            bytes.append(1)
            append(value)
        }

        mutating func append(_ text: String?) {
            guard var text else { return bytes.append(0) }
            bytes.append(1)
            append(UInt64(text.utf8.count))
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }

        mutating func append(_ texts: [String]) {
            append(UInt64(texts.count))
            for text in texts { append(text) }
        }

        mutating func append(present texts: [String]?) {
            guard let texts else { return bytes.append(0) }
            bytes.append(1)
            append(texts)
        }

        mutating func append(_ data: Data?) {
            guard let data else { return bytes.append(0) }
            bytes.append(1)
            append(UInt64(data.count))
            bytes.append(contentsOf: data)
        }

        mutating func append(_ date: Date?) {
            append(date.map { $0.timeIntervalSince1970.bitPattern })
        }
    }
}
