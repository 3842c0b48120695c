package import Foundation
import Hummingbird
import Indexing

/// JSON bodies: the API's answers, and its errors as `{"error": "..."}` with a status, never a 500 for bad input.
package enum JSONResponse {
    /// How the API writes JSON: keys sorted, slashes not escaped, dates in ISO 8601.
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        do {
            return body(try encoder().encode(value), status: status)
        } catch {
            return self.error(.internalServerError, "the answer could not be encoded: \(error)")
        }
    }

    /// The body of `GET /search`, written by ``SearchResultsJSON`` (the bytes `make` would write, faster), or taken
    /// from the results' rendering when the result cache answered and an earlier answer wrote it.
    static func search(_ results: SearchResults) -> Response {
        let render = { SearchResultsJSON.encode(results) }
        guard let bytes = results.rendering.map({ $0.bytes(orRender: render) }) ?? render() else { return make(results) }
        return body(bytes, status: .ok)
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        struct Failure: Encodable { var error: String }
        return make(Failure(error: message), status: status)
    }

    private static func body(_ data: some Sequence<UInt8>, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
