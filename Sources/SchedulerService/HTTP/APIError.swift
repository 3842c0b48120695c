import Hummingbird

/// An answer other than success, thrown by a handler: its status and `{"error": "what is wrong; what to do"}`.
/// Bad input is always one of these, never a 500.
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    let message: String

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.error(status, message)
    }
}
