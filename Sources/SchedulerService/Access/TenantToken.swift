import Foundation
import Indexing
import JWTKit
import PluginAPI
import Store
import Synchronization

/// A tenant token: a JWT an application's backend signs with one of its search keys (HS256, the key as the
/// secret), so that a browser searches for one user without a round trip to the service. Its claims: `keyUid`, the
/// key that signed it; `exp`, required; `domains`, narrowing the key's (never widening them); `groups`, the user's
/// groups (the items only some may find).
struct TenantTokenClaims: JWTPayload {
    var keyUid: String
    var exp: ExpirationClaim
    /// Not before: a token is refused until then, when it says.
    var nbf: NotBeforeClaim?
    /// Whom the token is for: what `search.rateLimit.perUser` counts (the token itself without one).
    var sub: SubjectClaim?
    var domains: [String]?
    var groups: [String]?

    /// The expiry is judged by the service's clock after the signature (``TenantTokens/verify(_:now:key:)``).
    func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// Checks tenant tokens: their shape and size, their algorithm, their key's signature, their expiry and their
/// claims. A refusal says what was wrong, without the token.
struct TenantTokens: Sendable {
    /// The longest token read, in bytes.
    static let maxBytes = 8_192
    /// The most domains and groups a token may name, and the longest group name.
    static let maxDomains = 100, maxGroups = 100, maxGroupBytes = 256
    /// How far ahead a token's `exp` may be: a token lives minutes or hours, never for ever; one in a link's `token`
    /// parameter (``SearchGate``), which travels further than a header, an hour at most.
    static let maxLifetime: TimeInterval = 31 * 86_400, maxLifetimeInLinks: TimeInterval = 3_600

    private let secrets: SearchKeySecrets
    /// A key collection per key, made once (the HMAC key's setup): at most ``maxKeysKept``.
    private let collections = KeyCollections()
    private static let maxKeysKept = 1_000

    init(secrets: SearchKeySecrets) {
        self.secrets = secrets
    }

    /// The key uid `token` names, read before its signature is checked: which key to check it with.
    func keyUID(of token: String) throws(TenantTokenRefusal) -> String {
        guard token.utf8.count <= Self.maxBytes else { throw TenantTokenRefusal("the token is longer than \(Self.maxBytes) bytes") }
        let parsed: (header: JWTHeader, payload: TenantTokenClaims, signature: Data)
        do {
            parsed = try DefaultJWTParser().parse(Array(token.utf8), as: TenantTokenClaims.self)
        } catch {
            throw TenantTokenRefusal("the token is not a JWT whose claims hold keyUid and exp (a number of seconds)")
        }
        guard parsed.header.alg == "HS256" else {
            throw TenantTokenRefusal("the token's alg is \(parsed.header.alg.map { "'\($0.prefix(20))'" } ?? "missing"); tenant tokens are signed with HS256")
        }
        // RFC 7515 §4.1.11: extensions the reader must understand; this one understands none.
        guard parsed.header.crit == nil else { throw TenantTokenRefusal("the token's header names crit extensions, which are not understood") }
        return parsed.payload.keyUid
    }

    /// The claims of `token` when `key`, the key it names, signed it and it holds at `now`; its domains within the
    /// key's.
    func verify(_ token: String, now: Date, key: SearchKey, maxLifetime: TimeInterval = TenantTokens.maxLifetime) async throws(TenantTokenRefusal) -> TenantTokenClaims {
        let claims: TenantTokenClaims
        do {
            claims = try await collection(for: key.uid).verify(token, as: TenantTokenClaims.self)
        } catch {
            throw Self.unknownKey
        }
        guard claims.exp.value > now else { throw TenantTokenRefusal("the token expired at \(claims.exp.value.formatted(.iso8601)): mint a new one") }
        guard claims.exp.value.timeIntervalSince(now) <= maxLifetime else {
            throw TenantTokenRefusal(
                maxLifetime < Self.maxLifetime
                    ? "a token in a link's token parameter must expire within an hour: a link travels further than a header"
                    : "the token's exp is more than 31 days away: tenant tokens live minutes or hours; mint them as users come"
            )
        }
        if let notBefore = claims.nbf?.value, notBefore > now {
            throw TenantTokenRefusal("the token is not valid before \(notBefore.formatted(.iso8601)) (nbf)")
        }
        try Self.check(claims, within: key)
        return claims
    }

    private static func check(_ claims: TenantTokenClaims, within key: SearchKey) throws(TenantTokenRefusal) {
        if let domains = claims.domains {
            guard (1...maxDomains).contains(domains.count) else { throw TenantTokenRefusal("domains must name 1 to \(maxDomains) domains") }
            let keyAudience = SearchAudience(domains: key.domains, groups: nil)
            for domain in domains where !DomainIdentifier.isValid(domain) || !keyAudience.mayFind(domain: domain) {
                throw TenantTokenRefusal("the token's domain '\(domain.prefix(80))' is not within its key's domains: a token narrows its key, never widens it")
            }
        }
        if let subject = claims.sub?.value, !(1...256).contains(subject.utf8.count) {
            throw TenantTokenRefusal("sub must be 1 to 256 bytes long")
        }
        if let groups = claims.groups {
            guard groups.count <= maxGroups else { throw TenantTokenRefusal("groups must name at most \(maxGroups) groups (it names \(groups.count))") }
            for group in groups where !(1...maxGroupBytes).contains(group.utf8.count) || group.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw TenantTokenRefusal("each group must be 1 to \(maxGroupBytes) bytes long, without control characters")
            }
        }
    }

    private func collection(for uid: String) async -> JWTKeyCollection {
        if let kept = collections.kept.withLock({ $0[uid] }) { return kept }
        let collection = await JWTKeyCollection().add(hmac: HMACKey(from: secrets.key(uid: uid)), digestAlgorithm: .sha256)
        collections.kept.withLock { kept in
            if kept.count >= Self.maxKeysKept { kept.removeAll() }
            kept[uid] = collection
        }
        return collection
    }

    private final class KeyCollections: Sendable {
        let kept = Mutex<[String: JWTKeyCollection]>([:])
    }
}

extension TenantTokens {
    /// The refusal of a token whose key is unknown, revoked or expired, or whose signature is not its key's: one
    /// sentence for all, so that a refusal does not tell which uids are live.
    static let unknownKey = TenantTokenRefusal(
        "its keyUid names no live search key of this service, or it was not signed with that key (HS256, the whole key sk_… as the secret)"
    )
}

/// Why a tenant token was refused, in words for the application's developer.
struct TenantTokenRefusal: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
