import HTTPTypes
import Hummingbird

/// Lets the pages of the origins `search.cors.origins` lists call the item endpoints (search, items, thumbnails,
/// opens) from the browser: their answers, errors included (a page must read why its token was refused), carry
/// `Access-Control-Allow-Origin` with that origin alone, never `*`; every answer of these endpoints says
/// `Vary: Origin`, so a cache keeps one per origin. The admin API and the console have no such header: a browser
/// never lets another site read them.
struct CrossOriginSearch: RouterMiddleware {
    typealias Context = SchedulerRequestContext
    let active: ActiveConfiguration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let allowed = try await allowedOrigin(of: request)
        do {
            return Self.marked(try await next(request, context), origin: allowed)
        } catch let error as any HTTPResponseError {
            return Self.marked(try error.response(from: request, context: context), origin: allowed)
        }
    }

    /// `OPTIONS` on an item endpoint: the browser's preflight. A listed origin may send `GET` and `HEAD` with an
    /// `Authorization` header (a search key or tenant token); any other gets the answer without permission, so the
    /// browser refuses the call.
    func preflight(_ request: Request) async throws -> Response {
        var response = Response(status: .noContent)
        if let origin = try await allowedOrigin(of: request) {
            response.headers[.accessControlAllowMethods] = "GET, HEAD"
            response.headers[.accessControlAllowHeaders] = "Authorization"
            response.headers[.accessControlMaxAge] = "600"
            return Self.marked(response, origin: origin)
        }
        return Self.marked(response, origin: nil)
    }

    /// The request's `Origin` when the configuration in force lists it; a request without one costs nothing.
    private func allowedOrigin(of request: Request) async throws -> String? {
        guard let origin = request.headers[.origin]?.lowercased() else { return nil }
        return await active.current.scheduler.search.corsOrigins.contains(origin) ? origin : nil
    }

    private static func marked(_ response: Response, origin: String?) -> Response {
        var response = response
        if !response.headers[values: .vary].contains(where: { $0.lowercased() == "origin" }) {
            response.headers.append(HTTPField(name: .vary, value: "Origin"))
        }
        if let origin { response.headers[.accessControlAllowOrigin] = origin }
        return response
    }
}
