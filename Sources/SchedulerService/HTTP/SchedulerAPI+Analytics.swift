import Foundation
import Hummingbird
import Indexing
import PluginAPI

extension SchedulerAPI {
    /// `GET /analytics?since=DURATION&limit=N` (admin: queries are what people typed): ``SearchAnalytics`` over the
    /// last `since` (default 30 days), the first `limit` (default 20) of each list; and the searches of each search
    /// key this replica answered since it started.
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
            let analytics = try await storeDeadline.run { [store] in try await store.index.analytics(since: day, limit: limit) }
            let byKey = searchRateLimit.searchesByKey().map { KeySearches(uid: $0.key, searches: $0.value) }.sorted { ($1.searches, $0.uid) < ($0.searches, $1.uid) }
            return JSONResponse.make(AnalyticsDocument(analytics: analytics, searchesByKey: byKey))
        } catch {
            throw await unavailable(error)
        }
    }
}

/// The body of `/analytics`: the store's ``SearchAnalytics`` and, beside it, the searches per search key.
private struct AnalyticsDocument: Encodable {
    var analytics: SearchAnalytics
    var searchesByKey: [KeySearches]

    private enum CodingKeys: String, CodingKey { case searchesByKey }

    func encode(to encoder: any Encoder) throws {
        try analytics.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(searchesByKey, forKey: .searchesByKey)
    }
}

/// How many searches a key made on this replica since it started.
private struct KeySearches: Encodable {
    var uid: String
    var searches: Int
}
