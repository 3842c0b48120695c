import Hummingbird
import Indexing

extension SchedulerAPI {
    /// `/healthz`, and on a replica of a shared store, 503 while its search copy is about to be or being fetched from
    /// another replica (seconds): searches would go to PostgreSQL meanwhile, slower, so a load balancer should send
    /// them to a ready replica. A copy made from the store itself (no peer had one) does not hold readiness back: the
    /// store answers meanwhile, and no replica may be faster.
    func readyz() async -> Response {
        var report = await health()
        if report.problem == nil, let searchCopy, await searchCopy.isWarming {
            report.problem = "the search copy is being fetched from another replica"
        }
        return JSONResponse.make(report, status: report.problem == nil ? .ok : .serviceUnavailable)
    }

    /// `GET /search-copy` (admin): this replica's search copy for a new replica to start from (see
    /// ``SearchCopyTransfer``); 503 while it has none made.
    func searchCopySnapshot() async throws(APIError) -> Response {
        let snapshot: SearchCopySnapshot?
        do {
            snapshot = try await searchCopy?.snapshot()
        } catch {
            throw APIError(.serviceUnavailable, "could not take a snapshot of the search copy: \(error)")
        }
        guard let snapshot else {
            throw APIError(.serviceUnavailable, "this replica has no search copy to give: it keeps none, or it is still being made")
        }
        return Response(
            status: .ok, headers: [.contentType: "application/octet-stream", .cacheControl: "no-store"], body: SearchCopyTransfer.body(of: snapshot)
        )
    }
}
