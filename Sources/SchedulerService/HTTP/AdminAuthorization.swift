import Hummingbird

/// Guards the admin endpoints with `Authorization: Bearer <token>`, the token coming from the service's
/// environment (`SCHEDULER_ADMIN_TOKEN`). Without a configured token the endpoints are closed (403); a
/// missing or wrong token is refused (401). Tokens are compared in constant time.
public struct AdminAuthorization: Sendable {
    let token: String?

    /// `token` is `nil` or empty when admin endpoints are disabled.
    public init(token: String?) {
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether a token is set: without one, the admin endpoints and the console are closed.
    var isEnabled: Bool { token != nil }

    /// Throws the refusal to send unless `request` may proceed.
    func check(_ request: Request) throws(APIError) {
        guard isEnabled else {
            throw APIError(.forbidden, "admin endpoints are disabled: start the service with SCHEDULER_ADMIN_TOKEN set")
        }
        guard admits(request) else { throw Self.wrongToken }
    }

    /// The refusal of a missing or wrong token (401).
    static let wrongToken = APIError(.unauthorized, "missing or wrong token: send Authorization: Bearer <SCHEDULER_ADMIN_TOKEN>")

    /// Whether `request` carries the token (``check(_:)`` passes).
    func admits(_ request: Request) -> Bool {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return false }
        return accepts(String(header.dropFirst(7)))
    }

    /// Whether `given` is the token, compared in constant time.
    func accepts(_ given: String?) -> Bool {
        guard let token, let given else { return false }
        return Self.constantTimeEquals(Array(given.utf8), Array(token.utf8))
    }

    /// Whether `a` equals `b`, in a time that depends only on their lengths.
    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}

/// The middleware of the admin routes: a request passes only with the admin token (see ``AdminAuthorization``).
/// Wrong tokens are limited as the console's sign-ins are (``AttemptThrottle/check(client:correct:)``, a throttle of
/// its own): past the limit, 429 with `Retry-After`, whatever the token.
struct AdminOnly: RouterMiddleware {
    typealias Context = SchedulerRequestContext
    let authorization: AdminAuthorization
    let attempts: AttemptThrottle

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Without a token the endpoints are closed (403): nothing to guess, nothing to count.
        if !authorization.isEnabled { try authorization.check(request) }
        let client = ClientKey.of(context.remoteAddress)
        switch await attempts.check(client: client, correct: authorization.admits(request)) {
        case .success:
            return try await next(request, context)
        case .failure(.heldBack(let refusal)):
            var response = JSONResponse.error(.tooManyRequests, "too many wrong admin tokens from this client: try again in \(Int(refusal.wait)) seconds")
            response.headers[.retryAfter] = "\(Int(refusal.wait))"
            return response
        case .failure(.wrong):
            context.logger.warning("admin request refused: missing or wrong token", metadata: ["client": "\(client ?? "in process")"])
            throw AdminAuthorization.wrongToken
        }
    }
}

/// The middleware of the status pages, `/status` and `/metrics` while `search.access` is `keys`: what they tell (every
/// domain and its count, what people typed) is then for operators, signed in to the console or sending the admin token
/// (held back as the admin API holds wrong ones). With `public` search they answer whoever reaches them, as before.
struct OperatorsWhenSearchIsKeyed: RouterMiddleware {
    typealias Context = SchedulerRequestContext
    let active: ActiveConfiguration
    let adminOnly: AdminOnly

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard await active.current.scheduler.search.access == .keys, context.sessions.session == nil else { return try await next(request, context) }
        if request.headers[.authorization] != nil { return try await adminOnly.handle(request, context: context, next: next) }
        throw APIError(
            .unauthorized,
            "while search.access is keys, the status pages, /status and /metrics are for operators: sign in to the console (/signin, on service.adminListen when it is set) or send the admin token"
        )
    }
}
