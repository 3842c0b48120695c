import Crypto
import Foundation
import Hummingbird
import Indexing
import SchedulerConfig
import Store

/// Who calls an endpoint that reveals items: what they may find, and what their searches count against
/// (``SearchRateLimit``).
struct SearchCaller: Sendable {
    var audience: SearchAudience
    /// The search key, itself or through a token; `nil` for anyone and operators.
    var keyUID: String?
    /// A tenant token's subject (its `sub`, or the token itself without one).
    var subject: String?

    static let anyone = SearchCaller(audience: .anyone), operators = SearchCaller(audience: .operators)
}

/// Who may call the endpoints that reveal items, request by request (`search.access`): an operator signed in to
/// the console finds everything; with `public`, anyone finds the items without `access`; with `keys`, a search key
/// finds the items of its domains without `access`, a tenant token those of its domains within its key's whose
/// `access` names one of its groups (or none). Anything else is refused (401) with a sentence saying what to send.
/// The admin token is not a search credential: a wrong guess here would not be held back as the admin API holds it.
struct SearchGate: Sendable {
    let active: ActiveConfiguration
    let keyring: SearchKeyring
    /// `nil` when the service's secret is not set: then no key or token is recognized.
    let secrets: SearchKeySecrets?
    let tokens: TenantTokens?
    let clock: @Sendable () -> Date

    init(active: ActiveConfiguration, store: any SearchKeyStore, secrets: SearchKeySecrets?, clock: @escaping @Sendable () -> Date = Date.init) {
        self.active = active
        keyring = SearchKeyring(store: store)
        self.secrets = secrets
        tokens = secrets.map(TenantTokens.init)
        self.clock = clock
    }

    /// What the caller of `request` may find. Where `tokenInQuery` (a link or an image: an open, a thumbnail, which a
    /// browser requests without headers), a tenant token may come as the query parameter `token` instead; never a
    /// key, which must not reach logs and referrers.
    func caller(of request: Request, signedIn: Bool, tokenInQuery: Bool = false) async throws(APIError) -> SearchCaller {
        if signedIn { return .operators }
        guard await active.current.scheduler.search.access == .keys else { return .anyone }
        if tokenInQuery, request.headers[.authorization] == nil, let token = request.queryFields["token"] {
            guard let tokens, !token.hasPrefix("sk_"), token.utf8.count <= TenantTokens.maxBytes else {
                throw APIError(.unauthorized, "the token parameter takes a tenant token (at most \(TenantTokens.maxBytes) bytes), never a search key")
            }
            return try await caller(ofToken: token, tokens: tokens, maxLifetime: TenantTokens.maxLifetimeInLinks)
        }
        guard let header = request.headers[.authorization] else {
            throw APIError(.unauthorized, "search needs a search key or a tenant token: send Authorization: Bearer <key or token>")
        }
        // The scheme's name is case-insensitive (RFC 9110 §11.1).
        guard header.utf8.count <= TenantTokens.maxBytes + 7, header.prefix(7).lowercased() == "bearer " else {
            throw APIError(.unauthorized, "the Authorization header must be Bearer <search key or tenant token>, of at most \(TenantTokens.maxBytes) bytes")
        }
        let credential = String(header.dropFirst(7))
        guard let secrets, let tokens else {
            throw APIError(.unauthorized, "this replica recognizes no search key: its operator must set \(SearchKeySecrets.environmentVariable), the same on every replica")
        }
        if credential.hasPrefix("sk_") {
            guard let uid = secrets.uid(ofKey: credential), let key = try await liveKey(uid) else {
                throw APIError(.unauthorized, "the search key is not one of this service's, was revoked or has expired")
            }
            return SearchCaller(audience: SearchAudience(domains: key.domains, groups: []), keyUID: key.uid)
        }
        return try await caller(ofToken: credential, tokens: tokens)
    }

    private func caller(ofToken token: String, tokens: TenantTokens, maxLifetime: TimeInterval = TenantTokens.maxLifetime) async throws(APIError) -> SearchCaller {
        func refused(_ refusal: TenantTokenRefusal) -> APIError { APIError(.unauthorized, "tenant token refused: \(refusal.reason)") }
        let uid: String
        do { uid = try tokens.keyUID(of: token) } catch { throw refused(error) }
        guard SearchKeyUID.isValid(uid), let key = try await liveKey(uid) else { throw refused(TenantTokens.unknownKey) }
        do {
            let claims = try await tokens.verify(token, now: clock(), key: key, maxLifetime: maxLifetime)
            return SearchCaller(
                audience: SearchAudience(domains: claims.domains ?? key.domains, groups: claims.groups ?? []), keyUID: key.uid,
                subject: claims.sub.map { "sub:" + $0.value } ?? "token:" + Self.digest(ofSigned: token)
            )
        } catch {
            throw refused(error)
        }
    }

    /// The SHA-256 of a token's header and claims, in hexadecimal: what counts a token without `sub` (its signature
    /// has other spellings that verify alike, and a digest is short).
    private static func digest(ofSigned token: String) -> String {
        let signed = token.split(separator: ".", maxSplits: 2).prefix(2).joined(separator: ".")
        return SHA256.hash(data: Data(signed.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The key `uid` when it exists and has not expired.
    private func liveKey(_ uid: String) async throws(APIError) -> SearchKey? {
        do {
            return try await keyring.key(uid: uid).flatMap { $0.isValid(at: clock()) ? $0 : nil }
        } catch {
            throw APIError(.serviceUnavailable, "the store did not answer with the search keys; try again", retryAfter: 1)
        }
    }
}
