import Foundation
import Hummingbird
import Indexing

extension SchedulerAPI {
    /// The endpoints that reveal items (search, items, thumbnails, opens), each to whom `search.access` lets see them
    /// (``SearchGate``), with their answers to the pages of the origins `search.cors.origins` lists
    /// (``CrossOriginSearch``) and the browser's preflights.
    func addItemRoutes(to router: Router<SchedulerRequestContext>) {
        let crossOrigin = CrossOriginSearch(active: active)
        let items = router.group().add(middleware: crossOrigin)
        let gate = searchGate
        @Sendable func caller(_ request: Request, _ context: SchedulerRequestContext, tokenInQuery: Bool = false) async throws(APIError) -> SearchCaller {
            try await gate.caller(of: request, signedIn: context.sessions.session != nil, tokenInQuery: tokenInQuery)
        }
        @Sendable func audience(_ request: Request, _ context: SchedulerRequestContext, tokenInQuery: Bool = false) async throws(APIError) -> SearchAudience {
            try await caller(request, context, tokenInQuery: tokenInQuery).audience
        }
        items.get("search") { request, context in
            let caller = try await caller(request, context)
            try await limitSearches(of: caller)
            return try await search(request, audience: caller.audience, client: ClientKey.of(context.remoteAddress), counted: !context.isHead)
        }
        items.get("items/{id}") { request, context in try await item(context.parameters.get("id") ?? "", audience: audience(request, context)) }
        items.get("items/{id}/thumbnail") { request, context in
            try await thumbnail(context.parameters.get("id") ?? "", audience: audience(request, context, tokenInQuery: true), request: request)
        }
        items.get("open/{id}") { request, context in
            try await open(
                context.parameters.get("id") ?? "", audience: audience(request, context, tokenInQuery: true), request: request,
                client: ClientKey.of(context.remoteAddress),
                counted: !context.isHead
            )
        }
        for path in ["search", "items/{id}", "items/{id}/thumbnail", "open/{id}"] {
            router.on(RouterPath(path), method: .options) { request, _ in try await crossOrigin.preflight(request) }
        }
    }
}

extension SchedulerAPI {
    /// 429 with `Retry-After` when `caller`'s key or token subject is past `search.rateLimit` this minute.
    func limitSearches(of caller: SearchCaller) async throws(APIError) {
        guard let key = caller.keyUID else { return }
        let limits = await active.current.scheduler.search.rateLimit
        if let wait = searchRateLimit.admit(key: key, subject: caller.subject, perKey: limits.perKey, perSubject: limits.perUser, now: Date()) {
            throw APIError(
                .tooManyRequests,
                "too many searches this minute for this \(caller.subject == nil ? "search key" : "user or search key") (search.rateLimit): try again in \(wait) seconds",
                retryAfter: wait
            )
        }
    }
}
