import Foundation
import Hummingbird

/// JSON bodies: the API's answers, and its errors as `{"error": "..."}` with a status, never a 500 for bad input.
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            return body(try encoder.encode(value), status: status)
        } catch {
            return self.error(.internalServerError, "the answer could not be encoded: \(error)")
        }
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        struct Failure: Encodable { var error: String }
        return make(Failure(error: message), status: status)
    }

    private static func body(_ data: Data, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
