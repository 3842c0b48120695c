public import Foundation
import PluginAPI
public import Store

/// Makes, lists and revokes search keys for the admin API and the command line alike: what an operator asks is
/// checked here once, and a refusal says what to change.
public struct SearchKeyIssuer: Sendable {
    /// The longest key name, in bytes, and the most domains a key may name.
    public static let maxNameBytes = 200, maxDomains = 100

    let store: any SearchKeyStore
    let secrets: SearchKeySecrets?

    public init(store: any SearchKeyStore, secrets: SearchKeySecrets?) {
        self.store = store
        self.secrets = secrets
    }

    /// A new key and its secret, shown this once: named `name`, finding the items of `domains` (and under them) until
    /// `expires` (or until revoked).
    public func create(name: String, domains: [String], expires: Date?, now: Date) async throws -> (key: SearchKey, secret: String) {
        guard let secrets else { throw SearchKeyProblem.noSecret }
        try Self.check(name: name, domains: domains, expires: expires, now: now)
        let key = SearchKey(uid: SearchKeyUID.make(), name: name, domains: domains, expires: expires, createdAt: now)
        try await store.addSearchKey(key)
        return (key, secrets.key(uid: key.uid))
    }

    /// Every key not revoked, without secrets.
    public func list() async throws -> [SearchKey] {
        try await store.searchKeys()
    }

    /// Revokes `uid`; whether there was such a key.
    public func revoke(uid: String) async throws -> Bool {
        guard SearchKeyUID.isValid(uid) else { return false }
        return try await store.revokeSearchKey(uid: uid)
    }

    static func check(name: String, domains: [String], expires: Date?, now: Date) throws(SearchKeyProblem) {
        guard (1...maxNameBytes).contains(name.utf8.count), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalid("name must be 1 to \(maxNameBytes) bytes of text without control characters: what the key is for")
        }
        guard (1...maxDomains).contains(domains.count) else {
            throw .invalid("domains must list 1 to \(maxDomains) domains, such as [\"com.shop\"] (a key finds the items of those domains and those under them)")
        }
        if let bad = domains.first(where: { !DomainIdentifier.isValid($0) }) {
            throw .invalid("domains: \(DomainIdentifier.syntaxProblem(bad))")
        }
        if let expires, expires <= now {
            throw .invalid("expires (\(expires.formatted(.iso8601))) is not in the future")
        }
    }
}

/// Why a key was not made.
public enum SearchKeyProblem: Error, CustomStringConvertible {
    /// The request was wrong: what to change.
    case invalid(String)
    /// The service's secret is not set, so no key can be shown.
    case noSecret

    public var description: String {
        switch self {
        case .invalid(let reason): reason
        case .noSecret:
            "search keys need the service's secret: set \(SearchKeySecrets.environmentVariable) (at least \(SearchKeySecrets.minimumSecretBytes) bytes, the same on every replica and for the command line)"
        }
    }
}

/// A key as the admin API and `scheduler keys` show it; `key`, its secret, only in the answer that made it.
public struct SearchKeyDocument: Encodable, Sendable {
    public var uid: String
    public var key: String?
    public var name: String
    public var domains: [String]
    public var expires: Date?
    public var createdAt: Date

    public init(_ key: SearchKey, secret: String? = nil) {
        (uid, self.key, name, domains, expires, createdAt) = (key.uid, secret, key.name, key.domains, key.expires, key.createdAt)
    }
}
