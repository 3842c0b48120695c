import Foundation
import Hummingbird
import Indexing
import PluginAPI

extension SchedulerAPI {
    /// `GET /analytics?since=DURATION&limit=N` (admin: queries are what people typed): ``SearchAnalytics`` over the
    /// last `since` (default 30 days), the first `limit` (default 20) of each list.
    func analytics(_ request: Request) async throws(APIError) -> Response {
        let parameters = request.queryFields
        let window = parameters["since"].map { DurationText.parse($0) } ?? SearchAnalytics.defaultWindow
        guard let window, window >= .seconds(86_400) else {
            throw APIError(.badRequest, "since must be a duration of a day or more, such as 7d or 12w")
        }
        let limit = parameters["limit"].map { Int($0) } ?? SearchAnalytics.defaultLimit
        guard let limit, (1...SearchAnalytics.maxLimit).contains(limit) else {
            throw APIError(.badRequest, "limit must be a whole number between 1 and \(SearchAnalytics.maxLimit)")
        }
        let day = SearchAnalytics.firstDay(of: window, now: Date())
        do {
            return JSONResponse.make(try await storeDeadline.run { [store] in try await store.index.analytics(since: day, limit: limit) })
        } catch {
            throw await unavailable(error)
        }
    }
}
