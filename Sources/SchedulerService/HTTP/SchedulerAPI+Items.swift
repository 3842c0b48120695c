import Foundation
import Hummingbird
import Indexing
import PluginAPI
import SchedulerConfig

/// Opening a result: an item looked up by identifier, its thumbnail, and `/open`, which counts the open and
/// redirects to the item's deep link.
extension SchedulerAPI {
    /// `GET /items/{id}`: the item as ``ItemDocument``, or 404.
    func item(_ rawIdentifier: String, audience: SearchAudience = .anyone) async throws(APIError) -> Response {
        JSONResponse.make(ItemDocument(try await liveItem(rawIdentifier, audience: audience)))
    }

    /// `GET /items/{id}/thumbnail`: the stored thumbnail's bytes, served only when they are a PNG, JPEG, GIF or WebP
    /// image, as the type their first bytes show, with a strong `ETag` (a matching `If-None-Match` gets 304).
    func thumbnail(_ rawIdentifier: String, audience: SearchAudience = .anyone, request: Request) async throws(APIError) -> Response {
        let item = try await liveItem(rawIdentifier, audience: audience)
        guard let data = item.thumbnailData, let format = ThumbnailFormat(sniffing: data) else {
            throw APIError(.notFound, "the item has no thumbnail stored as a PNG, JPEG, GIF or WebP image")
        }
        let tag = "\"\(data.count)-\(Bucketing.digest(data))\""
        var headers: HTTPFields = [
            // A thumbnail only some may see is kept by the browser alone, never by a shared cache.
            .eTag: tag, .cacheControl: audience == .anyone ? "public, max-age=300" : "private, max-age=300", .xContentTypeOptions: "nosniff",
            .contentSecurityPolicy: "default-src 'none'; sandbox",
        ]
        // If-None-Match compares weakly (RFC 9110): `W/"…"` matches the same tag, `*` any.
        let conditions = request.headers[values: .ifNoneMatch].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        if conditions.contains(where: { $0 == "*" || $0 == tag || $0 == "W/" + tag }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = format.mediaType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `GET /open/{id}?q=TEXT`: 302 to the item's `contentURL` when its scheme is allowed (``OpenSchemes``), the
    /// open counted for the item and the query (``OpenCounter``); 404 for an item that is gone, has no link or one
    /// never redirected to; 429 past the client's rate. An open not `counted` (a `HEAD`) is only answered.
    func open(
        _ rawIdentifier: String, audience: SearchAudience = .anyone, request: Request, client: String?, counted: Bool = true
    ) async throws(APIError) -> Response {
        let item = try await liveItem(rawIdentifier, audience: audience)
        let configuration = await active.current
        let allowed = OpenSchemes.allowed(in: configuration)
        guard let address = item.contentURL else { throw APIError(.notFound, "the item has no contentURL to open") }
        guard let location = OpenSchemes.location(of: address, allowed: allowed) else {
            throw APIError(.notFound, "the item's contentURL is not opened from here: its scheme is not one of service.openSchemes (\(allowed.sorted().joined(separator: ", ")))")
        }
        let query = request.queryFields["q"].flatMap { OpenTally.foldedQuery($0) }
        let redirect = Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
        guard counted else { return redirect }
        switch await opens.admit(identifier: item.uniqueIdentifier, query: query, client: client, rateLimit: configuration.scheduler.openRateLimit) {
        case .limited:
            throw APIError(.tooManyRequests, "too many opens from this client; try again in a minute")
        case .counted:
            metrics.recordOpen()
        case .uncounted:
            break
        }
        return redirect
    }

    /// The live item a raw path segment names (percent-decoded), or 404: also for an item `audience` may not find
    /// (outside its domains, or whose `access` names none of its groups), so that its existence is not revealed.
    private func liveItem(_ rawIdentifier: String, audience: SearchAudience) async throws(APIError) -> SearchableItem {
        guard let identifier = rawIdentifier.removingPercentEncoding, !identifier.isEmpty,
            identifier.utf8.count <= ItemLimits.standard.maxIdentifierBytes
        else {
            throw APIError(.notFound, "no item has this identifier: write it percent-encoded, as a path segment")
        }
        let found: SearchableItem?
        do {
            found = try await storeDeadline.run { [store] in try await store.index.liveItem(withIdentifier: identifier, at: Date()) }
        } catch {
            throw await unavailable(error)
        }
        guard let found, audience.mayFind(found) else {
            throw APIError(.notFound, "no item '\(identifier.prefix(80))' in the index: it was never indexed, has expired or was deleted")
        }
        return found
    }
}
