import Engine
import Foundation
import Hummingbird
import HummingbirdAuth
import Logging

extension SchedulerAPI {
    /// `GET /signin`: the form; a signed-in operator is sent back to the status page.
    func signInPage(context: SchedulerRequestContext) async -> Response {
        guard context.sessions.session == nil else { return Self.redirect(to: "/", notice: .signedIn) }
        return StatusPage.response(SignInPageModel(environment: await active.current.scheduler.environment))
    }

    /// `POST /signin` with the field `token`: the admin token exchanged for a session (``ConsoleSessions``), or the
    /// form again with why (401), or 429 once ``AttemptThrottle`` holds the client back. The token is never logged.
    func signIn(_ request: Request, context: SchedulerRequestContext) async throws(APIError) -> Response {
        let environment = await active.current.scheduler.environment
        let client = ClientKey.of(context.remoteAddress)
        let admitted: Date
        switch await signIns.admit(client: client) {
        case .success(let date):
            admitted = date
        case .failure(let refusal):
            var response = StatusPage.response(
                SignInPageModel(environment: environment, problem: "Too many wrong tokens: try again in \(Int(refusal.wait)) seconds."),
                status: .tooManyRequests
            )
            response.headers[.retryAfter] = "\(Int(refusal.wait))"
            return response
        }
        let form = try await ConsoleForm.fields(request)
        guard authorization.accepts(form["token"]) else {
            context.logger.warning("console sign-in refused: wrong token", metadata: ["client": "\(client ?? "in process")"])
            return StatusPage.response(
                SignInPageModel(environment: environment, problem: "That is not the admin token (SCHEDULER_ADMIN_TOKEN)."), status: .unauthorized
            )
        }
        await signIns.succeeded(client: client, admittedAt: admitted)
        // A session the browser still held ends: one sign-in, one live session.
        if context.sessions.session != nil {
            await sessions.forget(request)
            context.sessions.clearSession()
        }
        context.sessions.createSession(.signedIn(at: Date()), expiresIn: ConsoleSession.lifetime)
        context.logger.notice("console sign-in", metadata: ["client": "\(client ?? "in process")"])
        return Self.redirect(to: "/", notice: .signedIn)
    }

    /// `POST /signout`: ends the session (its form carries the CSRF token).
    func signOut(_ request: Request, context: SchedulerRequestContext) async throws(APIError) -> Response {
        _ = try await signedInForm(request, context: context)
        context.sessions.clearSession()
        return Self.redirect(to: "/", notice: .signedOut)
    }

    /// `POST /console/…`: an action of the signed-in console, its form checked (session, CSRF token), `act` done,
    /// logged with what and where (never the token), then back to the page it came from with a notice; a refusal is
    /// a page saying why, with its status.
    func consoleAction(
        _ request: Request, context: SchedulerRequestContext, action: String, target: String,
        _ act: ([String: String]) async throws(APIError) -> ConsoleNotice
    ) async -> Response {
        var form: [String: String] = [:]
        let notice: ConsoleNotice
        do {
            form = try await signedInForm(request, context: context)
            notice = try await act(form)
        } catch {
            return StatusPage.response(
                RefusalPageModel(environment: await active.current.scheduler.environment, message: error.message, back: Self.safeBack(form["back"])),
                status: error.status
            )
        }
        context.logger.notice(
            "console action", metadata: ["action": "\(action)", "target": "\(target)", "client": "\(ClientKey.of(context.remoteAddress) ?? "in process")"]
        )
        return Self.redirect(to: Self.safeBack(form["back"]), notice: notice)
    }

    /// The console's actions, each behind ``consoleAction(_:context:action:target:_:)``.
    func addConsoleRoutes(to router: Router<SchedulerRequestContext>) {
        router.get("signin") { _, context in await signInPage(context: context) }
        router.post("signin") { request, context in try await signIn(request, context: context) }
        router.post("signout") { request, context in try await signOut(request, context: context) }
        router.post("console/sources/{name}/reindex") { request, context in
            let source = context.parameters.get("name") ?? ""
            return await consoleAction(request, context: context, action: "reindex", target: source) { form throws(APIError) in
                try await queueForcedRun(source: source, mode: form["mode"]) ? .incrementalQueued : .queued
            }
        }
        router.post("console/sources/{name}/pause") { request, context in
            let source = context.parameters.get("name") ?? ""
            return await consoleAction(request, context: context, action: "pause", target: source) { _ throws(APIError) in
                let client = ClientKey.of(context.remoteAddress) ?? "in process"
                return try await pause(source: source, by: "the console (\(client))").changed ? .paused : .alreadyPaused
            }
        }
        router.post("console/sources/{name}/resume") { request, context in
            let source = context.parameters.get("name") ?? ""
            return await consoleAction(request, context: context, action: "resume", target: source) { _ throws(APIError) in
                try await resume(source: source).changed ? .resumed : .notPaused
            }
        }
        router.post("console/sources/{name}/cancel") { request, context in
            let source = context.parameters.get("name") ?? ""
            return await consoleAction(request, context: context, action: "cancel", target: source) { _ throws(APIError) in
                _ = try await cancel(source: source, by: "the console (\(ClientKey.of(context.remoteAddress) ?? "in process"))")
                return .cancelRequested
            }
        }
        router.post("console/domains/{domain}/purge") { request, context in
            let domain = context.parameters.get("domain") ?? ""
            return await consoleAction(request, context: context, action: "purge", target: domain) { form throws(APIError) in
                guard form["confirm"] == domain else {
                    throw APIError(.badRequest, "type the domain's name, \(domain.prefix(200)), to confirm the purge; nothing was purged")
                }
                _ = try await purgeDomain(domain)
                return .purged
            }
        }
    }

    /// The fields of a console form whose session is live and whose CSRF token is the session's.
    private func signedInForm(_ request: Request, context: SchedulerRequestContext) async throws(APIError) -> [String: String] {
        guard let session = context.sessions.session else {
            throw APIError(.forbidden, "sign in first (/signin): console actions need a session; nothing was done")
        }
        let form = try await ConsoleForm.fields(request)
        guard AdminAuthorization.constantTimeEquals(Array((form["csrf"] ?? "").utf8), Array(session.csrfToken.utf8)) else {
            throw APIError(.forbidden, "the form's CSRF token is missing or is not this session's: reload the page and try again; nothing was done")
        }
        return form
    }

    /// 303 to `path` with `notice`.
    static func redirect(to path: String, notice: ConsoleNotice) -> Response {
        Response(status: .seeOther, headers: [.location: path + "?notice=" + notice.rawValue, .cacheControl: "no-store"])
    }

    /// Where a form may send the browser back to: the status page or a unit's page of this service, nothing else.
    package static func safeBack(_ back: String?) -> String {
        guard let back, back.hasPrefix("/units/"), !back.contains("//"), !back.contains("/.."), !back.contains("?"), !back.contains("#"), !back.contains("\\"),
            back.utf8.count <= 2048, back.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { return "/" }
        return back
    }
}
