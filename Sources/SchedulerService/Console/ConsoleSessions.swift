import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth

/// The console's sessions, through hummingbird-auth's `SessionMiddleware`: a cookie that is `HttpOnly`,
/// `SameSite=Strict`, expires with the session (``ConsoleSession/lifetime``), and, when the request came over TLS (a
/// reverse proxy terminating TLS says so with `X-Forwarded-Proto: https`), is `Secure` and named with the `__Host-`
/// prefix, which keeps it to this host's HTTPS origin. Sessions live in the process: a restart, or another replica,
/// asks to sign in again.
struct ConsoleSessions: RouterMiddleware {
    typealias Context = SchedulerRequestContext

    static let cookieName = "scheduler_session"
    static let secureCookieName = "__Host-scheduler_session"
    static let keyPrefix = "console."

    private let storage: any PersistDriver
    private let plain: SessionMiddleware<SchedulerRequestContext>
    private let secure: SessionMiddleware<SchedulerRequestContext>

    init(storage: any PersistDriver) {
        func middleware(cookie: String, secure: Bool) -> SessionMiddleware<SchedulerRequestContext> {
            SessionMiddleware(storage: storage, configuration: SessionMiddlewareConfiguration(
                sessionCookieParameters: SessionCookieParameters(name: cookie, path: "/", secure: secure, sameSite: .strict),
                keyPrefix: Self.keyPrefix, defaultSessionExpiration: ConsoleSession.lifetime
            ))
        }
        self.storage = storage
        plain = middleware(cookie: Self.cookieName, secure: false)
        secure = middleware(cookie: Self.secureCookieName, secure: true)
    }

    /// Ends the session `request`'s cookie names, in the store: its cookie no longer signs anyone in.
    func forget(_ request: Request) async {
        for name in [Self.cookieName, Self.secureCookieName] {
            if let id = request.cookies[name]?.value { try? await storage.remove(key: Self.keyPrefix + id) }
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await (Self.cameOverTLS(request) ? secure : plain).handle(request, context: context, next: next)
    }

    /// Whether the client reached the service over TLS, as the reverse proxy in front says.
    static func cameOverTLS(_ request: Request) -> Bool {
        guard let name = HTTPField.Name("X-Forwarded-Proto"), let proto = request.headers[name] else { return false }
        return proto.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }
}
