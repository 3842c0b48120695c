import Hummingbird

/// An answer other than success, thrown by a handler: its status and `{"error": "what is wrong; what to do"}`.
/// Bad input is always one of these, never a 500.
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    let message: String
    /// Seconds after which the same request may succeed (`Retry-After`): a 503 of a store that did not answer.
    var retryAfter: Int?

    init(_ status: HTTPResponse.Status, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.retryAfter = retryAfter
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONResponse.error(status, message)
        if let retryAfter { response.headers[.retryAfter] = "\(retryAfter)" }
        // A refused credential says which scheme is expected (RFC 9110 §11.6.1).
        if status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
        return response
    }
}
