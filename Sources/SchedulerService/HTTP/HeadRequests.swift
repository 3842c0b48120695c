public import Hummingbird

/// `HEAD` on every route that answers `GET`, as HTTP asks and as load balancers probe: the request is answered as the
/// `GET` (the context says it is a `HEAD`, so nothing is counted: no search, no open) and its status and headers
/// (`Content-Length` included) are sent without the body; an error's answer too. It wraps the whole router, as a
/// router's own middleware only sees the routes that matched the request's method.
public struct HeadRequests<Routes: HTTPResponderBuilder>: HTTPResponderBuilder where Routes.Responder.Context == SchedulerRequestContext {
    let routes: Routes

    public func buildResponder() -> Responder {
        Responder(routes: routes.buildResponder())
    }

    /// The router's responder, answering `HEAD` as `GET`.
    public struct Responder: HTTPResponder {
        let routes: Routes.Responder

        public func respond(to request: Request, context: SchedulerRequestContext) async throws -> Response {
            guard request.method == .head else { return try await routes.respond(to: request, context: context) }
            var head = request.head
            head.method = .get
            var context = context
            context.isHead = true
            do {
                return try await routes.respond(to: Request(head: head, body: request.body), context: context).createHeadResponse()
            } catch let error as any HTTPResponseError {
                return try error.response(from: request, context: context).createHeadResponse()
            }
        }
    }
}
