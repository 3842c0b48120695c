public import Foundation
import Crypto

/// The secrets of search keys, derived and never stored. A key is `sk_<uid>_<proof>`: its uid (32 hexadecimal digits,
/// random) and the HMAC-SHA-256 of the uid under the service's secret (`SCHEDULER_SEARCH_KEY_SECRET`), in base64url.
/// Every replica with the same secret recognizes every key; the store keeps only what a key may do (``SearchKey``),
/// so a copy of it holds no key. Changing the service's secret changes every key: that is how all keys are rotated
/// at once.
public struct SearchKeySecrets: Sendable {
    /// The environment variable that holds the service's secret.
    public static let environmentVariable = "SCHEDULER_SEARCH_KEY_SECRET"
    /// The shortest secret accepted, in bytes.
    public static let minimumSecretBytes = 32
    private static let prefix = "sk_"
    /// A key's length: the prefix, 32 digits, `_`, 43 base64url characters.
    private static let keyLength = 3 + 32 + 1 + 43

    private let secret: SymmetricKey

    /// The secrets of `secret`, the service's; throws when it is too short to keep keys unguessable.
    public init(secret: String) throws(SearchKeySecretsError) {
        guard secret.utf8.count >= Self.minimumSecretBytes else { throw SearchKeySecretsError.tooShort(bytes: secret.utf8.count) }
        self.secret = SymmetricKey(data: Data(secret.utf8))
    }

    /// The secrets of the service's secret in `environment`: `nil` when it is unset or empty.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(SearchKeySecretsError) -> SearchKeySecrets? {
        guard let secret = environment[environmentVariable], !secret.isEmpty else { return nil }
        return try SearchKeySecrets(secret: secret)
    }

    /// The key of `uid`.
    public func key(uid: String) -> String {
        let proof = HMAC<SHA256>.authenticationCode(for: Data("search-key/\(uid)".utf8), using: secret)
        return Self.prefix + uid + "_" + Data(proof).base64URLEncoded
    }

    /// The uid of `key` when it is a key these secrets make, compared in constant time.
    public func uid(ofKey key: String) -> String? {
        guard key.utf8.count == Self.keyLength, key.hasPrefix(Self.prefix) else { return nil }
        let uid = String(key.dropFirst(Self.prefix.count).prefix(32))
        guard SearchKeyUID.isValid(uid), AdminAuthorization.constantTimeEquals(Array(key.utf8), Array(self.key(uid: uid).utf8)) else { return nil }
        return uid
    }
}

/// A refused service secret.
public enum SearchKeySecretsError: Error, CustomStringConvertible {
    case tooShort(bytes: Int)

    public var description: String {
        switch self {
        case .tooShort(let bytes):
            "\(SearchKeySecrets.environmentVariable) holds \(bytes) bytes; it needs at least \(SearchKeySecrets.minimumSecretBytes): "
                + "set it to a long random string, the same on every replica (for instance: openssl rand -base64 48)"
        }
    }
}

/// The uids of search keys: 32 lowercase hexadecimal digits, random.
public enum SearchKeyUID {
    /// A new uid, from the system's random source.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    public static func isValid(_ uid: String) -> Bool {
        uid.utf8.count == 32 && uid.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

extension Data {
    /// Base64url without padding (RFC 4648 §5), as JWTs write it.
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
