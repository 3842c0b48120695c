import Hummingbird
import HTTPTypes
import Indexing

extension SchedulerAPI {
    /// 200 while the database answers and, on a replica of a shared store, its search copy is not about to be or being
    /// fetched from another replica at start (seconds: searches would go to PostgreSQL meanwhile, slower, so a load
    /// balancer should send them to a ready replica); else 503 with the reason in `problem`. What only the passes need
    /// (the loop, the last pass) is `/healthz`'s: a pass failing on every replica leaves search served.
    func readyz() async -> Response {
        let report = await healthReport(forSearch: true)
        return JSONResponse.make(report, status: report.problem == nil ? .ok : .serviceUnavailable)
    }

    /// `GET /search-copy`, on the listener of the admin actions: behind the credential replicas derive from the admin
    /// token (``SearchCopyKeys``), not the token itself.
    func addSearchCopyRoute(to router: Router<SchedulerRequestContext>) {
        let keys = SearchCopyKeys(adminToken: authorization.token)
        router.group()
            .add(middleware: AdminOnly(authorization: AdminAuthorization(token: keys?.credential), attempts: bearerAttempts))
            .get("search-copy") { request, context in try await searchCopySnapshot(request, context: context, keys: keys) }
    }

    /// This replica's search copy for a new replica to start from (see ``SearchCopyTransfer``), authenticated for the
    /// nonce the request carries; 503 while it has none made. A `HEAD` takes no snapshot.
    func searchCopySnapshot(_ request: Request, context: SchedulerRequestContext, keys: SearchCopyKeys?) async throws(APIError) -> Response {
        guard let keys, let nonce = request.headers[HTTPField.Name(SearchCopyTransfer.nonceHeader)!], SearchCopyKeys.isNonce(nonce) else {
            throw APIError(.badRequest, "send \(SearchCopyTransfer.nonceHeader): 32 lowercase hexadecimal digits")
        }
        let headers: HTTPFields = [.contentType: "application/octet-stream", .cacheControl: "no-store"]
        guard let searchCopy else { throw Self.noSearchCopy }
        if context.isHead {
            guard await searchCopy.isMade else { throw Self.noSearchCopy }
            return Response(status: .ok, headers: headers)
        }
        let snapshot: SearchCopySnapshot?
        do {
            snapshot = try await searchCopy.snapshot()
        } catch {
            throw APIError(.serviceUnavailable, "could not take a snapshot of the search copy: \(error)")
        }
        guard let snapshot else { throw Self.noSearchCopy }
        return Response(status: .ok, headers: headers, body: SearchCopyTransfer.body(of: snapshot, key: keys.transferKey(nonce: nonce)))
    }

    private static let noSearchCopy = APIError(.serviceUnavailable, "this replica has no search copy to give: it keeps none, or it is still being made")
}
