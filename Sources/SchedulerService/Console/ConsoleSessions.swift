import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth

/// The console's sessions, through hummingbird-auth's `SessionMiddleware`: a cookie `scheduler_session` that is
/// `HttpOnly`, `SameSite=Strict`, expires with the session (``ConsoleSession/lifetime``), and is `Secure` when the
/// request came over TLS (a reverse proxy terminating TLS says so with `X-Forwarded-Proto: https`). Sessions live in
/// the process: a restart, or another replica, asks to sign in again.
struct ConsoleSessions: RouterMiddleware {
    typealias Context = SchedulerRequestContext

    static let cookieName = "scheduler_session"

    private let plain: SessionMiddleware<SchedulerRequestContext>
    private let secure: SessionMiddleware<SchedulerRequestContext>

    init(storage: any PersistDriver) {
        func middleware(secure: Bool) -> SessionMiddleware<SchedulerRequestContext> {
            SessionMiddleware(storage: storage, configuration: SessionMiddlewareConfiguration(
                sessionCookieParameters: SessionCookieParameters(name: Self.cookieName, path: "/", secure: secure, sameSite: .strict),
                keyPrefix: "console.", defaultSessionExpiration: ConsoleSession.lifetime
            ))
        }
        plain = middleware(secure: false)
        secure = middleware(secure: true)
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
