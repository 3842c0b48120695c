public import Foundation

/// An operator signed in to the console with the admin token: what the session store keeps under the session
/// cookie. The token itself is never kept; the CSRF token every form of the session carries is.
public struct ConsoleSession: Codable, Sendable {
    /// Sent back in a hidden field of every form, and compared with this before any action.
    public var csrfToken: String
    public var signedInAt: Date

    /// How long a session lasts from sign-in.
    public static let lifetime: Duration = .seconds(2 * 3600)

    /// A new session with a fresh CSRF token: 32 random bytes, hex.
    public static func signedIn(at date: Date) -> ConsoleSession {
        var generator = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        return ConsoleSession(csrfToken: token, signedInAt: date)
    }
}
