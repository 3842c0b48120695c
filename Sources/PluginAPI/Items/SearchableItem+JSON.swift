import Foundation

/// The JSON form of an item: the field names of ``SearchableItem``, dates in ISO 8601, thumbnail data in base64.
/// Unknown fields are an error, so a misspelt field never goes silently missing.
extension SearchableItem: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case uniqueIdentifier, domainIdentifier, contentType, title, displayName, contentDescription
        case keywords, authorNames, contentCreationDate, contentModificationDate
        case thumbnailURL, thumbnailData, contentURL, relatedUniqueIdentifier, rankingHint, access, version, isCurrentVersion
        case expirationDate
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try Self.rejectUnknownKeys(in: decoder)
        try self.init(fields: DecodedFields(container: container))
    }

    /// The fields an item is assembled from, whoever read them: each accessor gives `nil` for a field absent or
    /// `null`, and throws an ``ItemValidationError`` naming the field when its JSON value has another type.
    protocol FieldSource {
        func string(_ key: CodingKeys) throws -> String?
        func strings(_ key: CodingKeys) throws -> [String]?
        func number(_ key: CodingKeys) throws -> Double?
        func flag(_ key: CodingKeys) throws -> Bool?
    }

    /// The item `fields` describe, checked in one order (the first fault found is the one reported).
    init(fields: some FieldSource) throws {
        guard let uniqueIdentifier = try fields.string(.uniqueIdentifier) else {
            throw ItemValidationError(field: "uniqueIdentifier", reason: "is required")
        }
        guard let domainIdentifier = try fields.string(.domainIdentifier) else {
            throw ItemValidationError(field: "domainIdentifier", reason: "is required")
        }
        self.init(uniqueIdentifier: uniqueIdentifier, domainIdentifier: domainIdentifier)
        contentType = try fields.string(.contentType) ?? Self.defaultContentType
        title = try fields.string(.title)
        displayName = try fields.string(.displayName)
        contentDescription = try fields.string(.contentDescription)
        keywords = try fields.strings(.keywords) ?? []
        authorNames = try fields.strings(.authorNames) ?? []
        contentCreationDate = try Self.date(.contentCreationDate, fields.string(.contentCreationDate))
        contentModificationDate = try Self.date(.contentModificationDate, fields.string(.contentModificationDate))
        thumbnailURL = try fields.string(.thumbnailURL)
        if let base64 = try fields.string(.thumbnailData) {
            guard let data = Data(base64Encoded: base64) else {
                throw ItemValidationError(field: "thumbnailData", reason: "is not valid base64")
            }
            thumbnailData = data
        }
        contentURL = try fields.string(.contentURL)
        relatedUniqueIdentifier = try fields.string(.relatedUniqueIdentifier)
        if let hint = try fields.number(.rankingHint) {
            guard hint == hint.rounded(), abs(hint) < 1e9 else {
                throw ItemValidationError(field: "rankingHint", reason: "expected an integer between 0 and 100 (got \(hint))")
            }
            rankingHint = Int(hint)
        }
        access = try fields.strings(.access)
        version = try fields.string(.version)
        isCurrentVersion = try fields.flag(.isCurrentVersion) ?? true
        expirationDate = try Self.date(.expirationDate, fields.string(.expirationDate))
    }

    /// The JSON names of the fields.
    static let fieldNames = Set(CodingKeys.allCases.map(\.stringValue))

    /// The error for an object holding fields no item has: the first of `unknown` in sorted order, with the known
    /// field it is closest to.
    static func unknownFieldError(_ unknown: some Sequence<String>) -> ItemValidationError? {
        guard let first = unknown.filter({ !fieldNames.contains($0) }).min() else { return nil }
        // A hostile line may name a field of megabytes: neither compared with every known name nor echoed whole.
        let suggestion = first.utf8.count <= 64 ? NearestName.suggestion(for: first, among: fieldNames) : ""
        return ItemValidationError(field: String(first.prefix(80)), reason: "unknown field\(suggestion)")
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
        try container.encodeIfPresent(access, forKey: .access)
        try container.encodeIfPresent(version, forKey: .version)
        if !isCurrentVersion { try container.encode(false, forKey: .isCurrentVersion) }
        try container.encodeIfPresent(expirationDate.map(ISO8601.string(from:)), forKey: .expirationDate)
    }

    private static func rejectUnknownKeys(in decoder: any Decoder) throws {
        let all = try decoder.container(keyedBy: AnyCodingKey.self)
        if let error = unknownFieldError(all.allKeys.map(\.stringValue)) { throw error }
    }

    /// The fields of a `Decoder`'s keyed container.
    private struct DecodedFields: FieldSource {
        let container: KeyedDecodingContainer<CodingKeys>

        func string(_ key: CodingKeys) throws -> String? {
            try field(key, expected: "a string") { try container.decodeIfPresent(String.self, forKey: key) }
        }

        func strings(_ key: CodingKeys) throws -> [String]? {
            try field(key, expected: "an array of strings") { try container.decodeIfPresent([String].self, forKey: key) }
        }

        func number(_ key: CodingKeys) throws -> Double? {
            try field(key, expected: "an integer") { try container.decodeIfPresent(Double.self, forKey: key) }
        }

        func flag(_ key: CodingKeys) throws -> Bool? {
            try field(key, expected: "true or false") { try container.decodeIfPresent(Bool.self, forKey: key) }
        }

        /// Runs `decode`, turning a type mismatch into an error that names the field and the `expected` type.
        private func field<T>(_ key: CodingKeys, expected: String, _ decode: () throws -> T) throws -> T {
            do {
                return try decode()
            } catch is DecodingError {
                throw ItemValidationError(field: key.stringValue, reason: "expected \(expected)")
            }
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
