import Foundation

extension SearchableItem {
    /// Checks every field against `limits`; throws the first problem found, naming its field.
    public func validate(limits: ItemLimits = .standard) throws(ItemValidationError) {
        try Self.require(uniqueIdentifier, field: "uniqueIdentifier", maxBytes: limits.maxIdentifierBytes)
        if let relatedUniqueIdentifier {
            try Self.require(relatedUniqueIdentifier, field: "relatedUniqueIdentifier", maxBytes: limits.maxIdentifierBytes)
        }
        guard DomainIdentifier.isValid(domainIdentifier) else {
            if domainIdentifier.isEmpty {
                throw ItemValidationError(field: "domainIdentifier", reason: "must not be empty")
            }
            throw ItemValidationError(field: "domainIdentifier", reason: DomainIdentifier.syntaxProblem(domainIdentifier))
        }
        guard domainIdentifier.utf8.count <= limits.maxDomainBytes else {
            throw ItemValidationError(field: "domainIdentifier", reason: "longer than \(limits.maxDomainBytes) bytes")
        }
        try Self.require(contentType, field: "contentType", maxBytes: limits.maxShortTextBytes)
        try Self.check(title, field: "title", maxBytes: limits.maxShortTextBytes)
        try Self.check(displayName, field: "displayName", maxBytes: limits.maxShortTextBytes)
        try Self.check(contentDescription, field: "contentDescription", maxBytes: limits.maxDescriptionBytes)
        guard keywords.count <= limits.maxKeywords else {
            throw ItemValidationError(field: "keywords", reason: "more than \(limits.maxKeywords) keywords (got \(keywords.count))")
        }
        for keyword in keywords {
            try Self.check(keyword, field: "keywords", maxBytes: limits.maxKeywordBytes)
        }
        guard authorNames.count <= limits.maxAuthorNames else {
            throw ItemValidationError(field: "authorNames", reason: "more than \(limits.maxAuthorNames) names (got \(authorNames.count))")
        }
        for name in authorNames {
            try Self.require(name, field: "authorNames", maxBytes: limits.maxAuthorNameBytes)
        }
        try Self.checkURL(thumbnailURL, field: "thumbnailURL", maxBytes: limits.maxURLBytes)
        try Self.checkURL(contentURL, field: "contentURL", maxBytes: limits.maxURLBytes)
        if let thumbnailData, thumbnailData.count > limits.maxThumbnailBytes {
            throw ItemValidationError(
                field: "thumbnailData",
                reason: "\(thumbnailData.count) bytes is over the limit of \(limits.maxThumbnailBytes) bytes; send a smaller thumbnail"
            )
        }
        for (field, date) in [("contentCreationDate", contentCreationDate), ("contentModificationDate", contentModificationDate), ("expirationDate", expirationDate)] {
            if let date, !date.timeIntervalSince1970.isFinite {
                throw ItemValidationError(field: field, reason: "is not a finite instant")
            }
        }
        if let rankingHint, !(0...100).contains(rankingHint) {
            throw ItemValidationError(field: "rankingHint", reason: "must be between 0 and 100 (got \(rankingHint))")
        }
        if let access { try Self.checkAccess(access, limits: limits) }
        try checkVersion(limits: limits)
    }

    /// A version of 1 to `maxVersionBytes` bytes without control characters; not current only with one.
    private func checkVersion(limits: ItemLimits) throws(ItemValidationError) {
        guard let version else {
            guard isCurrentVersion else {
                throw ItemValidationError(field: "isCurrentVersion", reason: "is false without a version; name the item's version, or leave it out")
            }
            return
        }
        try Self.require(version, field: "version", maxBytes: limits.maxVersionBytes)
        guard version != "*" else {
            throw ItemValidationError(field: "version", reason: "'*' stands for every version in a search; name the item's version")
        }
        guard !version.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ItemValidationError(field: "version", reason: "holds a control character")
        }
    }

    /// 1 to `maxAccessGroups` group names, each 1 to `maxAccessGroupBytes` bytes without control characters: an
    /// empty list would hide the item from everyone, which deleting it says better.
    private static func checkAccess(_ groups: [String], limits: ItemLimits) throws(ItemValidationError) {
        guard (1...limits.maxAccessGroups).contains(groups.count) else {
            throw ItemValidationError(
                field: "access",
                reason: "must name 1 to \(limits.maxAccessGroups) groups (got \(groups.count)); leave it out for an item whoever may search its domain finds"
            )
        }
        for group in groups {
            try require(group, field: "access", maxBytes: limits.maxAccessGroupBytes)
            guard !group.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw ItemValidationError(field: "access", reason: "a group name holds a control character")
            }
        }
    }

    private static func require(_ value: String, field: String, maxBytes: Int) throws(ItemValidationError) {
        guard !value.isEmpty else { throw ItemValidationError(field: field, reason: "must not be empty") }
        try check(value, field: field, maxBytes: maxBytes)
    }

    private static func check(_ value: String?, field: String, maxBytes: Int) throws(ItemValidationError) {
        guard let value else { return }
        guard value.utf8.count <= maxBytes else {
            throw ItemValidationError(field: field, reason: "longer than \(maxBytes) bytes (got \(value.utf8.count))")
        }
        guard !containsNUL(value) else {
            throw ItemValidationError(field: field, reason: "contains a NUL character")
        }
    }

    /// Whether `value` holds U+0000, found in its UTF-8 bytes at once (a `String`'s own iteration costs more than
    /// a pass's whole write of an unchanged item).
    private static func containsNUL(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in bytes.baseAddress.map { memchr($0, 0, bytes.count) != nil } ?? false }
    }

    private static func checkURL(_ value: String?, field: String, maxBytes: Int) throws(ItemValidationError) {
        guard let value else { return }
        try require(value, field: field, maxBytes: maxBytes)
        guard let url = URL(string: value), let scheme = url.scheme, !scheme.isEmpty else {
            throw ItemValidationError(field: field, reason: "'\(value.prefix(80))' is not an absolute URL (such as 'shop://category/42')")
        }
    }
}
