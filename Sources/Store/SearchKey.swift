public import Foundation

/// A search key: what an application presents (`Authorization: Bearer …`) to search and read the items of some
/// domains when `search.access` is `keys`, and what it signs tenant tokens with. The store keeps what the key may do,
/// never its secret: the secret is derived from the key's uid and the service's own secret (``SearchKeySecrets``
/// in the service), so a copy of the store (a backup, a replica's disk) holds no key.
public struct SearchKey: Sendable, Hashable, Codable {
    /// The key's identifier: 32 lowercase hexadecimal digits, random, never reused. Public: tenant tokens name their
    /// key by it (`keyUid`), and the admin API revokes by it.
    public var uid: String
    /// What the key is for, in the operator's words.
    public var name: String
    /// The domains the key finds items in, each with the domains under it (`com.shop` finds `com.shop.categories.fr`).
    public var domains: [String]
    /// When the key stops working; `nil`: when it is revoked.
    public var expires: Date?
    public var createdAt: Date

    public init(uid: String, name: String, domains: [String], expires: Date?, createdAt: Date) {
        self.uid = uid
        self.name = name
        self.domains = domains
        self.expires = expires
        self.createdAt = createdAt
    }

    /// Whether the key works at `now`.
    public func isValid(at now: Date) -> Bool { expires.map { now < $0 } ?? true }
}

/// A key's domains as the stores keep them: a JSON array of strings.
public enum SearchKeyDomains {
    public static func encode(_ domains: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(domains)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// The domains `json` holds; none (a key that finds nothing) when it is not an array of strings.
    public static func decode(_ json: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }
}
