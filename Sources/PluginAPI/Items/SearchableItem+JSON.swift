import Foundation

/// The JSON form of an item: the field names of ``SearchableItem``, dates in ISO 8601, thumbnail data in base64.
/// Unknown fields are an error, so a misspelt field never goes silently missing.
extension SearchableItem: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case uniqueIdentifier, domainIdentifier, contentType, title, displayName, contentDescription
        case keywords, authorNames, contentCreationDate, contentModificationDate
        case thumbnailURL, thumbnailData, contentURL, relatedUniqueIdentifier, rankingHint, expirationDate
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try Self.rejectUnknownKeys(in: decoder)
        func string(_ key: CodingKeys) throws -> String? {
            try Self.field(key, expected: "a string") { try container.decodeIfPresent(String.self, forKey: key) }
        }
        guard let uniqueIdentifier = try string(.uniqueIdentifier) else {
            throw ItemValidationError(field: "uniqueIdentifier", reason: "is required")
        }
        guard let domainIdentifier = try string(.domainIdentifier) else {
            throw ItemValidationError(field: "domainIdentifier", reason: "is required")
        }
        self.init(uniqueIdentifier: uniqueIdentifier, domainIdentifier: domainIdentifier)
        contentType = try string(.contentType) ?? Self.defaultContentType
        title = try string(.title)
        displayName = try string(.displayName)
        contentDescription = try string(.contentDescription)
        keywords = try Self.field(.keywords, expected: "an array of strings") { try container.decodeIfPresent([String].self, forKey: .keywords) } ?? []
        authorNames = try Self.field(.authorNames, expected: "an array of strings") { try container.decodeIfPresent([String].self, forKey: .authorNames) } ?? []
        contentCreationDate = try Self.date(.contentCreationDate, string(.contentCreationDate))
        contentModificationDate = try Self.date(.contentModificationDate, string(.contentModificationDate))
        thumbnailURL = try string(.thumbnailURL)
        if let base64 = try string(.thumbnailData) {
            guard let data = Data(base64Encoded: base64) else {
                throw ItemValidationError(field: "thumbnailData", reason: "is not valid base64")
            }
            thumbnailData = data
        }
        contentURL = try string(.contentURL)
        relatedUniqueIdentifier = try string(.relatedUniqueIdentifier)
        if let hint = try Self.field(.rankingHint, expected: "an integer", { try container.decodeIfPresent(Double.self, forKey: .rankingHint) }) {
            guard hint == hint.rounded(), abs(hint) < 1e9 else {
                throw ItemValidationError(field: "rankingHint", reason: "expected an integer between 0 and 100 (got \(hint))")
            }
            rankingHint = Int(hint)
        }
        expirationDate = try Self.date(.expirationDate, string(.expirationDate))
    }

    /// The instant `text` names, read strictly (RFC 3339 with a zone), or an error naming the field `key`.
    private static func date(_ key: CodingKeys, _ text: String?) throws -> Date? {
        guard let text else { return nil }
        do {
            return try ISO8601.parse(text)
        } catch {
            throw ItemValidationError(field: key.stringValue, reason: "'\(text.prefix(40))' is not an ISO 8601 date such as 2027-01-31T00:00:00Z: \(error.reason)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uniqueIdentifier, forKey: .uniqueIdentifier)
        try container.encode(domainIdentifier, forKey: .domainIdentifier)
        try container.encode(contentType, forKey: .contentType)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(displayName, forKey: .displayName)
        try container.encodeIfPresent(contentDescription, forKey: .contentDescription)
        if !keywords.isEmpty { try container.encode(keywords, forKey: .keywords) }
        if !authorNames.isEmpty { try container.encode(authorNames, forKey: .authorNames) }
        try container.encodeIfPresent(contentCreationDate.map(ISO8601.string(from:)), forKey: .contentCreationDate)
        try container.encodeIfPresent(contentModificationDate.map(ISO8601.string(from:)), forKey: .contentModificationDate)
        try container.encodeIfPresent(thumbnailURL, forKey: .thumbnailURL)
        try container.encodeIfPresent(thumbnailData?.base64EncodedString(), forKey: .thumbnailData)
        try container.encodeIfPresent(contentURL, forKey: .contentURL)
        try container.encodeIfPresent(relatedUniqueIdentifier, forKey: .relatedUniqueIdentifier)
        try container.encodeIfPresent(rankingHint, forKey: .rankingHint)
        try container.encodeIfPresent(expirationDate.map(ISO8601.string(from:)), forKey: .expirationDate)
    }

    private static func rejectUnknownKeys(in decoder: any Decoder) throws {
        let all = try decoder.container(keyedBy: AnyCodingKey.self)
        let known = Set(CodingKeys.allCases.map(\.stringValue))
        if let unknown = all.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
            let suggestion = NearestName.suggestion(for: unknown, among: known)
            throw ItemValidationError(field: unknown, reason: "unknown field\(suggestion)")
        }
    }

    /// Runs `decode`, turning a type mismatch into an error that names the field and the `expected` type.
    private static func field<T>(_ key: CodingKeys, expected: String, _ decode: () throws -> T) throws -> T {
        do {
            return try decode()
        } catch is DecodingError {
            throw ItemValidationError(field: key.stringValue, reason: "expected \(expected)")
        }
    }
}

/// A coding key for any name, used to list the keys an object really has.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
