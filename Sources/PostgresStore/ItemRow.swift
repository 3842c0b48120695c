import Foundation
import Indexing
import PluginAPI

/// One item as the batch upsert sends it (see ``PostgresSearchIndex``): its columns, its priority band and its
/// folded words, under the names the statement's `jsonb_to_recordset` reads.
struct ItemRow: Encodable {
    var band: Int64
    var uid: String
    var domain: String
    var type: String
    var title: String?
    var name: String?
    var description: String?
    var keywords: String
    var authorNames: String
    var created: Double?
    var modified: Double?
    var thumbnailURL: String?
    /// Base64, decoded by the statement.
    var thumbnail: String?
    var contentURL: String?
    var related: String?
    var hint: Int?
    /// The groups that may find the item; `nil` for whoever may search its domain.
    var access: [String]?
    var version: String?
    var current: Bool
    var expiration: Double
    var digest: Int64
    var wordsAll: [String]
    var wordsBest: [String]
    var wordsNames: [String]

    enum CodingKeys: String, CodingKey {
        case band, uid, domain, type, title, name, description, keywords, created, modified, thumbnail, related, hint, access, version, current, expiration, digest
        case authorNames = "author_names", thumbnailURL = "thumbnail_url", contentURL = "content_url"
        case wordsAll = "words_all", wordsBest = "words_best", wordsNames = "words_names"
    }

    init(_ item: SearchableItem, expiration: Date, digest: Int64) {
        let keywords = KeywordList.encode(item.keywords), authorNames = KeywordList.encode(item.authorNames)
        let words = ItemWords(
            title: item.title, displayName: item.displayName, keywords: keywords, authorNames: authorNames, contentDescription: item.contentDescription
        )
        band = ItemPriority(rankingHint: item.rankingHint).band
        uid = item.uniqueIdentifier
        domain = item.domainIdentifier
        type = item.contentType
        title = item.title
        name = item.displayName
        description = item.contentDescription
        self.keywords = keywords
        self.authorNames = authorNames
        created = item.contentCreationDate?.timeIntervalSince1970
        modified = item.contentModificationDate?.timeIntervalSince1970
        thumbnailURL = item.thumbnailURL
        thumbnail = item.thumbnailData?.base64EncodedString()
        contentURL = item.contentURL
        related = item.relatedUniqueIdentifier
        hint = item.rankingHint
        access = item.access
        version = item.version
        current = item.isCurrentVersion
        self.expiration = expiration.timeIntervalSince1970
        self.digest = digest
        wordsAll = words.all
        wordsBest = words.best
        wordsNames = words.names
    }
}
